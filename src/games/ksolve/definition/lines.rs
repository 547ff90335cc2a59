//! A definition's text as the readers see it: its lines one at a time
//! (blank and comment-only ones skipped), each split into words, with the
//! line numbers errors name.

use crate::error::Error;

/// The words of one line, with the line's number (1-based) and its text.
pub(super) struct Line<'a> {
    pub(super) number: usize,
    pub(super) words: Vec<&'a str>,
    pub(super) text: &'a str,
}

/// The definition's lines one at a time, blank and comment-only lines
/// skipped: only the line being read is split into words, so reading
/// costs memory in proportion to one line, not to the file.
pub(super) struct Reader<'a> {
    file: &'a str,
    pub(super) source: &'a str,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    peeked: Option<Line<'a>>,
    /// The number of the last line read or peeked.
    last: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(source: &'a str, file: &'a str) -> Self {
        Reader {
            file,
            source,
            lines: source.lines().enumerate(),
            peeked: None,
            last: 1,
        }
    }

    pub(super) fn error(&self, line: usize, message: String) -> Error {
        Error::InvalidParameter(format!("{}:{line}: {message}", self.file))
    }

    pub(super) fn next_line(&mut self) -> Option<Line<'a>> {
        if let Some(line) = self.peeked.take() {
            return Some(line);
        }
        for (index, text) in self.lines.by_ref() {
            let words: Vec<&'a str> = Words::new(text).collect_line();
            if !words.is_empty() {
                self.last = index + 1;
                return Some(Line {
                    number: index + 1,
                    words,
                    text,
                });
            }
        }
        None
    }

    pub(super) fn peek(&mut self) -> Option<&Line<'a>> {
        if self.peeked.is_none() {
            self.peeked = self.next_line();
        }
        self.peeked.as_ref()
    }

    /// The number of the last line with words (1 for a file without).
    pub(super) fn last_number(&self) -> usize {
        self.last
    }

    /// Where `part` (a slice of the source) begins in the source.
    pub(super) fn offset(&self, part: &str) -> usize {
        part.as_ptr() as usize - self.source.as_ptr() as usize
    }
}

/// The words of a stretch of a definition: whitespace apart, a `#` ending
/// its line's words. With `commas`, commas part words too (move lists).
#[derive(Clone)]
pub(super) struct Words<'a> {
    rest: &'a str,
    commas: bool,
}

impl<'a> Words<'a> {
    /// The words of one line (commas kept inside words).
    fn new(text: &'a str) -> Self {
        Words {
            rest: text,
            commas: false,
        }
    }

    /// The moves of a move list: words apart by whitespace or commas.
    pub(super) fn moves(text: &'a str) -> Self {
        Words {
            rest: text,
            commas: true,
        }
    }

    fn collect_line(self) -> Vec<&'a str> {
        self.collect()
    }

    fn is_break(&self, c: char) -> bool {
        c.is_whitespace() || (self.commas && c == ',')
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let trimmed = self.rest.trim_start_matches(|c| self.is_break(c));
            if let Some(comment) = trimmed.strip_prefix('#') {
                // The comment runs to the end of its line.
                self.rest = comment.find('\n').map_or("", |at| &comment[at..]);
                continue;
            }
            let end = trimmed
                .find(|c| self.is_break(c) || c == '#')
                .unwrap_or(trimmed.len());
            let (word, rest) = trimmed.split_at(end);
            self.rest = rest;
            return (!word.is_empty()).then_some(word);
        }
    }
}

pub(super) fn is_number_line(line: &Line) -> bool {
    line.words
        .first()
        .is_some_and(|word| *word == "?" || word.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::super::tests::SQUARE;

    #[test]
    fn windows_line_ends_tabs_and_comments_read_as_the_plain_file() {
        let plain = parse(SQUARE, "ring.tws").unwrap();
        let windows = SQUARE.replace('\n', "\r\n").replace(' ', "\t");
        assert_eq!(parse(&windows, "ring.tws").unwrap(), plain);
        let commented = SQUARE.replace("\nEnd", "  # the block ends\n\n  End");
        assert_eq!(parse(&commented, "ring.tws").unwrap(), plain);
    }
}
