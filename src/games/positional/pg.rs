//! The Positional Game Description format (`.pg`, version 1.0) of the
//! published benchmark instances: `#` code words (`#times`, `#blackturns`,
//! `#positions`, `#blackwins`, `#whitewins`, `#blackinitials`,
//! `#whiteinitials`, `#firstmoves`) each followed by lines of names
//! separated by whitespace (one winning set per line); `%` starts a comment.

use std::collections::HashMap;

use std::path::Path;

use super::{PositionalGame, Query, Side};
use crate::error::{Error, Result, quoted};
use crate::games::text_file::read_text;

/// Reads the `.pg` file at `path`: one it cannot read is an
/// [`Error::Io`], one that is no `.pg` instance an [`Error::BadFile`].
pub fn read(path: &Path) -> Result<(PositionalGame, Query)> {
    let text = read_text(path).map_err(|e| Error::on_file("read", path, e))?;
    parse(&text, &path.display().to_string()).map_err(|e| e.in_file(path))
}

/// Reads a `.pg` text; `origin` names it in errors.
pub fn parse(text: &str, origin: &str) -> Result<(PositionalGame, Query)> {
    let mut sections: HashMap<String, Vec<(usize, Vec<String>)>> = HashMap::new();
    let mut current: Option<String> = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        if let Some(word) = line.strip_prefix('#') {
            let word = word.trim().to_ascii_lowercase();
            const KNOWN: [&str; 8] = [
                "times",
                "blackturns",
                "positions",
                "blackwins",
                "whitewins",
                "blackinitials",
                "whiteinitials",
                "firstmoves",
            ];
            if !KNOWN.contains(&word.as_str()) {
                return Err(Error::InvalidParameter(format!(
                    "{origin}, line {}: unknown code word {}",
                    number + 1,
                    quoted(&format!("#{word}"))
                )));
            }
            sections.entry(word.clone()).or_default();
            current = Some(word);
            continue;
        }
        let Some(section) = &current else {
            return Err(Error::InvalidParameter(format!(
                "{origin}, line {}: names before any #code word",
                number + 1
            )));
        };
        let names = line.split_whitespace().map(str::to_string).collect();
        sections.get_mut(section).unwrap().push((number + 1, names));
    }
    let flat = |word: &str| -> Vec<(usize, String)> {
        sections
            .get(word)
            .map(|lines| {
                lines
                    .iter()
                    .flat_map(|(n, names)| names.iter().map(move |name| (*n, name.clone())))
                    .collect()
            })
            .unwrap_or_default()
    };
    // A name listed twice would make two cells (or two turns) that the
    // winning sets cannot tell apart, and the answer would change silently.
    let distinct = |word: &str, what: &str| -> Result<Vec<String>> {
        let mut first_seen: HashMap<String, usize> = HashMap::new();
        let mut names = Vec::new();
        for (line, name) in flat(word) {
            if let Some(first) = first_seen.insert(name.clone(), line) {
                return Err(Error::InvalidParameter(format!(
                    "{origin}, line {line}: duplicate {what} {} in #{word} (first on line {first})",
                    quoted(&name)
                )));
            }
            names.push(name);
        }
        Ok(names)
    };
    let cells = distinct("positions", "cell")?;
    if cells.is_empty() {
        return Err(Error::InvalidParameter(format!("{origin}: no #positions")));
    }
    let index: HashMap<&str, usize> = cells
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let lookup = |line: usize, name: &str| -> Result<usize> {
        index.get(name).copied().ok_or_else(|| {
            Error::InvalidParameter(format!(
                "{origin}, line {line}: {} is not among the #positions",
                quoted(name)
            ))
        })
    };
    let cell_list = |word: &str| -> Result<Vec<usize>> {
        flat(word)
            .iter()
            .map(|(line, name)| lookup(*line, name))
            .collect()
    };
    let sets = |word: &str| -> Result<Vec<Vec<usize>>> {
        sections
            .get(word)
            .map(|lines| {
                lines
                    .iter()
                    .map(|(line, names)| names.iter().map(|n| lookup(*line, n)).collect())
                    .collect()
            })
            .unwrap_or(Ok(Vec::new()))
    };
    let first_moves = sections
        .contains_key("firstmoves")
        .then(|| cell_list("firstmoves"))
        .transpose()?
        // A #firstmoves with no cells restricts nothing: read as absent,
        // not as a first move that no cell may take.
        .filter(|cells| !cells.is_empty());
    let name = std::path::Path::new(origin)
        .file_stem()
        .map(|stem| stem.to_string_lossy().to_string())
        .unwrap_or_else(|| origin.to_string());
    let mut game = PositionalGame {
        name,
        black_wins: sets("blackwins")?,
        white_wins: sets("whitewins")?,
        graph: None,
        black_stones: cell_list("blackinitials")?,
        white_stones: cell_list("whiteinitials")?,
        first_moves,
        cells,
    };
    game.validate()?;
    // Before the time points are read one by one: a game is over within
    // its free cells, as --depth is told.
    let time_count = sections
        .get("times")
        .map_or(0, |lines| lines.iter().map(|(_, names)| names.len()).sum());
    game.check_depth(time_count, &format!("{origin}: #times"))?;
    let times = distinct("times", "time")?;
    let black_turns: Vec<String> = flat("blackturns").into_iter().map(|(_, t)| t).collect();
    if let Some(unknown) = black_turns.iter().find(|t| !times.contains(t)) {
        return Err(Error::InvalidParameter(format!(
            "{origin}: black turn {} is not among the #times",
            quoted(unknown)
        )));
    }
    let query = Query {
        turns: times
            .iter()
            .map(|t| {
                if black_turns.contains(t) {
                    Side::Black
                } else {
                    Side::White
                }
            })
            .collect(),
    };
    game.graph = hex_graph(&game, &query);
    Ok((game, query))
}

/// Paths [`hex_graph`] looks at before giving up on seeing Hex in a file
/// (its sets then stay explicit): seconds of work at most.
const MAX_PATHS_LOOKED_AT: usize = 1 << 22;

/// The Hex graph behind a `.pg` file's winning sets, when there is one.
///
/// The format lists Black's sets explicitly, but the implicit-goal
/// encodings (EN, ET, LN, SN) need the board's neighbour graph. A file is
/// taken to be Hex on an n x n board when its cells are named like the
/// built-in board (`a1`..: letter = column, number = row), every set is a
/// minimal path between two opposite borders, and every minimal path that
/// avoids White's stones and has at most as many empty cells as Black has
/// moves is among the sets. Then "connect the borders" and "claim a set"
/// have the same answer within the depth, so the graph may stand in for
/// the sets. Both orientations (Black joining rows or columns) are tried.
fn hex_graph(game: &PositionalGame, query: &Query) -> Option<super::Graph> {
    use std::collections::HashSet;
    let n = game.cells.len();
    let size = (1..=8).find(|s| s * s == n)?;
    if !game.white_wins.is_empty() || game.black_wins.is_empty() {
        return None;
    }
    let hex = super::builtins::hex(size, false).ok()?;
    let index: HashMap<&str, usize> = game
        .cells
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let sorted = |mut set: Vec<usize>| {
        set.sort_unstable();
        set
    };
    let file_sets: HashSet<Vec<usize>> = game.black_wins.iter().cloned().map(sorted).collect();
    let white = super::mask_of(&game.white_stones);
    let black = super::mask_of(&game.black_stones);
    // Long enough for every file set and every path Black could complete.
    let longest = game
        .black_wins
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(query.black_moves() + game.black_stones.len());
    for transposed in [false, true] {
        // to_file[c]: the file's cell index of built-in cell c.
        let to_file: Option<Vec<usize>> = (0..n)
            .map(|c| {
                let (column, row) = (c % size, c / size);
                let (column, row) = if transposed {
                    (row, column)
                } else {
                    (column, row)
                };
                let name = format!("{}{}", (b'a' + column as u8) as char, row + 1);
                index.get(name.as_str()).copied()
            })
            .collect();
        let Some(to_file) = to_file else { continue };
        let graph = hex.graph.as_ref()?;
        let map = |cells: &[usize]| -> Vec<usize> { cells.iter().map(|&c| to_file[c]).collect() };
        let mut neighbours = vec![Vec::new(); n];
        for (c, around) in graph.neighbours.iter().enumerate() {
            neighbours[to_file[c]] = map(around);
        }
        let mapped = super::Graph {
            neighbours,
            start: map(&graph.start),
            end: map(&graph.end),
            white_start: map(&graph.white_start),
            white_end: map(&graph.white_end),
        };
        // The paths are looked at one at a time, never listed: a file of
        // one long set on a large board must not make millions of them.
        let mut listed = HashSet::new();
        let mut visited = 0usize;
        let winnable_are_sets = super::builtins::each_minimal_path(&mapped, longest, &mut |path| {
            visited += 1;
            let path = sorted(path.to_vec());
            let mask = super::mask_of(&path);
            let empty = (mask & !black).count_ones() as usize;
            let winnable = mask & white == 0 && empty <= query.black_moves();
            if file_sets.contains(&path) {
                listed.insert(path);
            } else if winnable {
                return false;
            }
            visited < MAX_PATHS_LOOKED_AT
        });
        let sets_are_paths = listed.len() == file_sets.len();
        if sets_are_paths && winnable_are_sets {
            return Some(mapped);
        }
    }
    None
}

/// Writes a game and a query as `.pg` text (times t1..td).
pub fn write(game: &PositionalGame, query: &Query) -> String {
    let name = |cell: &usize| game.cells[*cell].clone();
    let line = |cells: &[usize]| cells.iter().map(name).collect::<Vec<_>>().join(" ");
    let mut text = format!("% {}\n", game.name);
    let times: Vec<String> = (1..=query.depth()).map(|t| format!("t{t}")).collect();
    text.push_str(&format!("#times\n{}\n", times.join(" ")));
    let black: Vec<String> = query
        .turns
        .iter()
        .enumerate()
        .filter(|(_, s)| **s == Side::Black)
        .map(|(t, _)| format!("t{}", t + 1))
        .collect();
    text.push_str(&format!("#blackturns\n{}\n", black.join(" ")));
    text.push_str(&format!("#positions\n{}\n", game.cells.join(" ")));
    if !game.black_stones.is_empty() {
        text.push_str(&format!("#blackinitials\n{}\n", line(&game.black_stones)));
    }
    if !game.white_stones.is_empty() {
        text.push_str(&format!("#whiteinitials\n{}\n", line(&game.white_stones)));
    }
    text.push_str("#blackwins\n");
    for set in &game.black_wins {
        text.push_str(&line(set));
        text.push('\n');
    }
    if !game.white_wins.is_empty() {
        text.push_str("#whitewins\n");
        for set in &game.white_wins {
            text.push_str(&line(set));
            text.push('\n');
        }
    }
    if let Some(first) = game.first_move_restriction() {
        text.push_str(&format!("#firstmoves\n{}\n", line(first)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEIN_3X3: &str = "%\n#blackinitials\na1\n#whiteinitials\nb1\nc2\n#times\nt1 t2 t3\n#blackturns\nt1 t3\n#positions\na1 a2 a3 b1 b2 b3 c1 c2 c3\n#blackwins\na1 a2 a3\na1 a2 b2 b3\nc1 b2 a3\nc1 b2 b3\n";

    #[test]
    fn reads_and_writes_round_trip() {
        let (game, query) = parse(HEIN_3X3, "hein_04_3x3-03.pg").unwrap();
        assert_eq!(game.cells.len(), 9);
        assert_eq!(game.black_wins.len(), 4);
        assert_eq!(game.black_stones, vec![0]);
        assert_eq!(game.white_stones, vec![3, 7]);
        assert_eq!(query, Query::alternating(3));
        let (again, query_again) = parse(&write(&game, &query), "again.pg").unwrap();
        assert_eq!(
            (again.black_wins, again.black_stones, query_again),
            (game.black_wins, game.black_stones, query)
        );
    }

    #[test]
    fn hex_is_recognised_only_when_every_winnable_path_is_listed() {
        let (game, _) = parse(HEIN_3X3, "hein_04_3x3-03.pg").unwrap();
        let graph = game.graph.expect("Hein's 3x3 puzzle is Hex");
        // Black joins rows 1 and 3 of the built-in naming.
        let names = |cells: &[usize]| -> Vec<&str> {
            cells.iter().map(|&c| game.cells[c].as_str()).collect()
        };
        assert_eq!(names(&graph.start), ["a1", "b1", "c1"]);
        assert_eq!(names(&graph.end), ["a3", "b3", "c3"]);
        // Without the path a1 a2 a3, which Black completes in two moves,
        // the sets are no longer Hex's within the depth.
        let missing = HEIN_3X3.replace("a1 a2 a3\n", "");
        let (game, _) = parse(&missing, "missing.pg").unwrap();
        assert_eq!(game.black_wins.len(), 3);
        assert!(game.graph.is_none());
        // Sets that are not paths at all.
        let (game, _) = parse(&HEIN_3X3.replace("c1 b2 a3", "a1 b1 c1"), "odd.pg").unwrap();
        assert!(game.graph.is_none());
    }

    #[test]
    fn bad_files_name_the_line() {
        let error = parse("#positions\na b\n#blackwins\na c\n", "x.pg")
            .unwrap_err()
            .to_string();
        assert!(error.contains("line 4") && error.contains("'c'"), "{error}");
        assert!(parse("#nonsense\n", "x.pg").is_err());
        assert!(parse("a b\n", "x.pg").is_err());
    }

    #[test]
    fn duplicate_cells_and_times_are_refused_with_their_line() {
        let error = parse(&HEIN_3X3.replace("b3 c1", "b3 a2 c1"), "x.pg")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("line 12") && error.contains("duplicate cell 'a2'"),
            "{error}"
        );
        let error = parse(&HEIN_3X3.replace("t1 t2 t3", "t1 t2 t3\nt2"), "x.pg")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("line 9") && error.contains("duplicate time 't2'"),
            "{error}"
        );
    }
}
