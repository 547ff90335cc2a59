//! Which registered game a store's table solves, read from its descriptor:
//! what a reader that has only the directory (the explorer) opens it on. A
//! descriptor is the game's own words ("fox-geese g=6 capture-wins;
//! retrograde values", "burned pancake n=8; two-bit BFS"), not a format
//! made to be parsed back, so a guess is made from its words and kept only
//! if the game it opens describes its tables in exactly those words.

use crate::error::Result;
use crate::games::board::Board;
use crate::games::registry::{self, GameKind, GameOptions, SpaceVisitor};
use crate::games::{TwoPlayerGame, TwoPlayerVisitor};
use crate::space::{Picture, Space};

/// A registered game and the options that open it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's name in the registry.
    pub name: &'static str,
    /// One- or two-player (positional games have no stored tables).
    pub kind: GameKind,
    /// Options by name: a value, or `None` for a flag that is set.
    pub options: Vec<(String, Option<String>)>,
}

impl StoredGame {
    /// The options, as the registry opens the game with them.
    pub fn game_options(&self) -> GameOptions {
        self.options.iter().fold(
            GameOptions::default(),
            |options, (name, value)| match value {
                Some(value) => options.with(name, value),
                None => options.with_flag(name),
            },
        )
    }
}

/// The game (and options) whose table `descriptor` describes, if it is a
/// one- or two-player game of the registry that opens with options read
/// from the descriptor's words.
pub fn game_of(descriptor: &str) -> Option<StoredGame> {
    let words: Vec<&str> = descriptor.split("; ").next()?.split(' ').collect();
    let entry = words.iter().find_map(|word| {
        registry::entry(word)
            .or_else(|error| {
                registry::two_player_described_as(word).map_or(Err(error), registry::entry)
            })
            .ok()
            .filter(|entry| entry.kind != GameKind::Positional)
    })?;
    let takes = |name: &str, valued: bool| {
        entry
            .options
            .iter()
            .any(|option| option.name == name && option.value.is_some() == valued)
    };
    let mut options = Vec::new();
    // Words that name no option: one of them may be the value of a
    // `variant` option (Morris's "nine", "morabaraba").
    let mut loose = Vec::new();
    for &word in &words {
        if let Some((key, value)) = word.split_once('=')
            && takes(key, true)
        {
            options.push((key.to_string(), Some(value.to_string())));
        } else if takes(word, false) {
            options.push((word.to_string(), None));
        } else if takes("board", true) && Board::built_in_names().contains(&word) {
            options.push(("board".to_string(), Some(word.to_string())));
        } else if let Some((width, height)) = word.split_once('x')
            && takes("width", true)
            && takes("height", true)
            && [width, height]
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            options.push(("width".to_string(), Some(width.to_string())));
            options.push(("height".to_string(), Some(height.to_string())));
        } else if !word.contains('=') && word != entry.name {
            loose.push(word);
        }
    }
    let mut variants: Vec<Option<&str>> = vec![None];
    if takes("variant", true) {
        variants.extend(loose.into_iter().map(Some));
    }
    let game_words = words.join(" ");
    variants.into_iter().find_map(|variant| {
        let mut options = options.clone();
        if let Some(variant) = variant {
            options.push(("variant".to_string(), Some(variant.to_string())));
        }
        let guess = StoredGame {
            name: entry.name,
            kind: entry.kind,
            options,
        };
        let described = match entry.kind {
            GameKind::OnePlayer => {
                registry::visit(entry.name, &guess.game_options(), Describe(&game_words))
            }
            _ => {
                registry::visit_two_player(entry.name, &guess.game_options(), Describe(&game_words))
            }
        };
        described.ok().filter(|&same| same).map(|_| guess)
    })
}

/// Whether a game describes its tables (a layer's, for a two-player game)
/// in these words.
struct Describe<'a>(&'a str);

impl SpaceVisitor for Describe<'_> {
    type Output = bool;

    fn visit<S: Space + Picture>(self, space: &S) -> Result<bool> {
        Ok(space.descriptor() == self.0)
    }
}

impl TwoPlayerVisitor for Describe<'_> {
    type Output = bool;

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<bool> {
        Ok((0..=game.max_layer()).any(|layer| game.layer_descriptor(layer) == self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Named = (&'static str, Vec<(String, Option<String>)>);

    fn options(descriptor: &str) -> Option<Named> {
        game_of(descriptor).map(|game| (game.name, game.options))
    }

    fn value(name: &str, value: &str) -> (String, Option<String>) {
        (name.to_string(), Some(value.to_string()))
    }

    #[test]
    fn tables_name_their_games_and_options() {
        assert_eq!(
            options("pancake n=8; two-bit BFS"),
            Some(("pancake", vec![value("n", "8")]))
        );
        assert_eq!(
            options("burned pancake n=6; two-bit BFS keeping depth mod 3"),
            Some((
                "pancake",
                vec![("burned".to_string(), None), value("n", "6")]
            ))
        );
        assert_eq!(
            options("fox-geese g=6; retrograde values"),
            Some(("fox-geese", vec![]))
        );
        assert_eq!(
            options("fox-geese g=3 capture-wins symmetry; retrograde distances"),
            Some((
                "fox-geese",
                vec![
                    ("capture-wins".to_string(), None),
                    ("symmetry".to_string(), None)
                ]
            ))
        );
        assert_eq!(
            options("dodgem n=3 cars=2; retrograde values"),
            Some(("dodgem", vec![value("n", "3")]))
        );
        assert_eq!(
            options("sliding-tile 3x2; two-bit BFS"),
            Some((
                "sliding-tile",
                vec![value("width", "3"), value("height", "2")]
            ))
        );
        // Morris: its tables' first word, and the variant's word.
        assert_eq!(
            options("morris nine stones=12 moving symmetry; retrograde values"),
            Some(("nine-mens-morris", vec![("symmetry".to_string(), None)]))
        );
        assert_eq!(
            options("morris morabaraba men=4 hand=3 opening; retrograde values"),
            Some((
                "nine-mens-morris",
                vec![value("men", "4"), value("variant", "morabaraba")]
            ))
        );
        // Words that do not open a game describing itself so are no game.
        assert_eq!(options("pancake n=eight; two-bit BFS"), None);
        assert_eq!(options("pancake n=8 extra; two-bit BFS"), None);
        assert_eq!(options("hex; anything"), None);
        assert_eq!(options("chess; two-bit BFS"), None);
        assert_eq!(options(""), None);
    }
}
