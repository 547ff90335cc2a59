//! A game a job runs on, as every shell names it: a registered name and
//! its options ([`crate::games::registry`] opens it).

use crate::error::Result;
use crate::games::TwoPlayerVisitor;
use crate::games::registry::{self, GameOptions, SpaceVisitor};

/// A one-player game: its registered name and options.
///
/// ```
/// use bitsolve::games::registry::GameOptions;
/// use bitsolve::jobs::GameSpec;
/// let pancake = GameSpec { name: "pancake".into(), options: GameOptions::default().with("n", "7") };
/// assert_eq!(pancake.name, "pancake");
/// ```
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The name the registry knows it by (`bitsolve games` lists them).
    pub name: String,
    /// Its options, as `--name value` flags would give them.
    pub options: GameOptions,
}

impl GameSpec {
    /// Opens the game and runs `visitor` on it.
    pub fn visit<V: SpaceVisitor>(&self, visitor: V) -> Result<V::Output> {
        registry::visit(&self.name, &self.options, visitor)
    }
}

/// A two-player game: its registered name and options.
#[derive(Clone, Debug)]
pub struct TwoPlayerSpec(pub GameSpec);

impl TwoPlayerSpec {
    /// The name the registry knows it by.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// Opens the game and runs `visitor` on it.
    pub fn visit<V: TwoPlayerVisitor>(&self, visitor: V) -> Result<V::Output> {
        registry::visit_two_player(&self.0.name, &self.0.options, visitor)
    }
}
