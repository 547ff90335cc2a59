//! A puzzle's definition as a store's identity records it: what the file
//! means, not how it is written, and the layout of its index, so that a
//! store written under another layout is refused as another game.

use super::coordinates::{Coordinates, Kind};
use super::definition::Definition;

/// The index layout, part of a definition's identity: a store written
/// under another layout (before 2026-11-28 the smallest coordinates came
/// first) holds other ranks, and is refused as another game.
const INDEX_LAYOUT: &str = "index largest coordinates first\n";

/// Added to the layout where a permutation too large for a table is
/// ranked by piece and put last (before 2026-11-29 it was ranked by slot
/// among the others): only those definitions' stores changed meaning.
const BY_PIECE_LAYOUT: &str = "permutations without a table ranked by piece, last\n";

/// Added to the layout where pieces look alike: their arrangements are
/// ranked as nested colour sets, the games' shared multinomial hash
/// (before 2026-11-29, by Algorithm 10's order, which numbers them
/// otherwise): only those definitions' stores changed meaning.
const ALIKE_LAYOUT: &str = "alike pieces ranked as nested colour sets\n";
/// The definition as the table identity records it: what the file means,
/// not how it is written, and the layout of its index.
pub(super) fn canonical(definition: &Definition, hash: &Coordinates) -> String {
    let mut text = String::from(INDEX_LAYOUT);
    if hash.coordinates.iter().any(|c| c.by_piece) {
        text.push_str(BY_PIECE_LAYOUT);
    }
    if hash
        .coordinates
        .iter()
        .any(|c| matches!(c.kind, Kind::Multiset(_)))
    {
        text.push_str(ALIKE_LAYOUT);
    }
    for set in &definition.sets {
        text.push_str(&format!(
            "set {} {} {}\n",
            set.name, set.pieces, set.orientations
        ));
    }
    for part in &definition.solved {
        text.push_str(&format!(
            "solved {:?} {:?}\n",
            part.labels, part.orientations
        ));
    }
    for named in &definition.moves {
        text.push_str(&format!("move {}", named.name));
        for part in &named.transform.sets {
            text.push_str(&format!(" {:?} {:?}", part.from, part.twist));
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::super::tests::{CUBE, TIED, puzzle};
    use super::*;
    use crate::games::ksolve::definition::Metric;
    use crate::space::Space;

    #[test]
    fn the_identity_is_the_definition_not_the_path_or_the_layout_of_the_file() {
        let cube = puzzle(CUBE, Metric::Powers);
        let respaced = puzzle(
            &format!(
                "# a comment\n{}",
                CUBE.replace("Move U\n", "Move U # the top\n")
            ),
            Metric::Powers,
        );
        assert_eq!(cube.descriptor(), respaced.descriptor());
        let other = puzzle(&CUBE.replace("Move F", "Move G"), Metric::Powers);
        assert_ne!(cube.descriptor(), other.descriptor());
        assert!(
            cube.descriptor()
                .starts_with("ksolve Cube7 metric=powers definition=")
        );
        assert_ne!(
            cube.descriptor(),
            puzzle(CUBE, Metric::Quarter).descriptor()
        );
    }

    /// A definition whose index changed order records it, so that a store
    /// written under the old order is refused; the others keep their
    /// identity (and their stores).
    #[test]
    fn only_definitions_whose_index_changed_say_so_in_their_identity() {
        let tied = puzzle(TIED, Metric::Powers);
        let alike = canonical(&tied.definition, &tied.hash);
        assert!(alike.contains(ALIKE_LAYOUT), "{alike}");
        assert!(!alike.contains(BY_PIECE_LAYOUT));
        let cube = puzzle(CUBE, Metric::Powers);
        let text = canonical(&cube.definition, &cube.hash);
        assert!(text.starts_with(INDEX_LAYOUT));
        assert!(!text.contains(ALIKE_LAYOUT) && !text.contains(BY_PIECE_LAYOUT));
    }
}
