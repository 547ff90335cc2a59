//! What `info` says of a puzzle beyond its size: the definition, the
//! moves under the metric, the product and folded spaces, the hash's
//! coordinates and the move tables' bytes.

use super::Ksolve;
use super::coordinates::{Kind, scientific};

impl Ksolve {
    /// The facts `info` prints about the hash.
    pub fn hash_summary(&self) -> String {
        let parts: Vec<String> = self
            .hash
            .coordinates
            .iter()
            .map(|c| {
                let set = &self.definition.sets[c.set].name;
                let what = match &c.kind {
                    Kind::Permutation => format!("{}! arrangements", c.slots.len()),
                    Kind::Multiset(_) => "arrangements of alike pieces".to_string(),
                    Kind::Alternation => return "moves made mod 2 = 2".to_string(),
                    Kind::Orientation {
                        orientations,
                        implied_sum,
                    } => format!(
                        "{orientations}^{} orientations{}",
                        c.slots.len() - implied_sum.is_some() as usize,
                        if implied_sum.is_some() {
                            " (sum kept)"
                        } else {
                            ""
                        }
                    ),
                };
                let folded = if c.radix < c.values {
                    ", parity folded"
                } else {
                    ""
                };
                let by_piece = match (&c.split, c.by_piece) {
                    (Some(split), _) => format!(
                        ", ranked by piece, split into {} placements x runs of {}",
                        split.placements, split.run_len
                    ),
                    (None, true) => ", ranked by piece".to_string(),
                    (None, false) => String::new(),
                };
                format!(
                    "{set}[{} slots]: {what} = {}{folded}{by_piece}",
                    c.slots.len(),
                    c.radix
                )
            })
            .collect();
        parts.join("; ")
    }

    /// What `info` says of the space beyond its size.
    pub fn info_lines(&self) -> Vec<(String, String)> {
        let mut lines = vec![
            (
                "definition".into(),
                format!("{} ({})", self.definition.name, self.file),
            ),
            (
                "moves".into(),
                format!(
                    "{} ({}: {})",
                    self.moves.len(),
                    self.metric.name(),
                    self.metric.describe()
                ),
            ),
            ("product space".into(), scientific(self.hash.product_space)),
            ("folded space".into(), self.hash.size.to_string()),
            ("hash".into(), self.hash_summary()),
            (
                "move tables".into(),
                format!("{} bytes", self.hash.table_bytes()),
            ),
        ];
        let rotations = &self.definition.rotations;
        if !rotations.is_empty() {
            let names: Vec<&str> = rotations.iter().map(|r| r.name.as_str()).collect();
            lines.push((
                "rotations".into(),
                format!(
                    "{} ({}): rotations of the whole puzzle, as twsearch reads their names; sequences and scrambles may name them, the search does not make them",
                    names.len(),
                    names.join(" ")
                ),
            ));
        }
        lines
    }
}
