//! What a game gives the registry to be opened by name: its options
//! ([`OptionSpec`], read back as [`GameOptions`]) and the traits
//! [`Registered`] (one-player) and [`RegisteredTwoPlayer`]. Every game's
//! file implements them; the list of games itself is
//! [`super::registry`], which no game imports.

use std::collections::BTreeMap;
use std::str::FromStr;

use serde::Serialize;

use super::two_player_game::TwoPlayerGame;
use crate::error::{Error, Result, quoted};
use crate::space::{Picture, Space};

/// One option a game takes: `--name VALUE`, or `--name` alone (a flag).
/// In JSON ([`catalog`](super::registry::catalog)): `{"name", "value",
/// "default", "help"}`, `value` and `default` `null` where there are none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OptionSpec {
    /// The option's name, without the dashes.
    pub name: &'static str,
    /// The placeholder of the value (`N`, `FILE`); `None` for a flag.
    pub value: Option<&'static str>,
    /// The value when the option is not given.
    pub default: Option<&'static str>,
    /// One line for `--help`.
    pub help: &'static str,
    /// The value may name a file to read (a definition, a board): a
    /// server never takes such a value from a client as a path.
    #[serde(skip)]
    pub names_file: bool,
}

impl OptionSpec {
    /// An option that takes a value, `value` its placeholder.
    pub const fn value(name: &'static str, value: &'static str, help: &'static str) -> Self {
        OptionSpec {
            name,
            value: Some(value),
            default: None,
            help,
            names_file: false,
        }
    }

    /// An option whose value is (or may be) the path of a file to read.
    pub const fn file(name: &'static str, value: &'static str, help: &'static str) -> Self {
        OptionSpec {
            names_file: true,
            ..OptionSpec::value(name, value, help)
        }
    }

    /// A flag: an option without a value.
    pub const fn flag(name: &'static str, help: &'static str) -> Self {
        OptionSpec {
            name,
            value: None,
            default: None,
            help,
            names_file: false,
        }
    }

    /// The option with `default` as its value when not given.
    pub const fn with_default(self, default: &'static str) -> Self {
        OptionSpec {
            default: Some(default),
            ..self
        }
    }
}

/// The options a game is opened with, by name (without the dashes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    values: BTreeMap<String, String>,
    flags: Vec<String>,
}

impl GameOptions {
    /// Sets option `name` to `value`.
    pub fn with(mut self, name: &str, value: impl ToString) -> Self {
        self.values.insert(name.to_string(), value.to_string());
        self
    }

    /// Sets flag `name`.
    pub fn with_flag(mut self, name: &str) -> Self {
        self.flags.push(name.to_string());
        self
    }

    /// The value of option `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Whether flag `name` is given: set with [`with_flag`](Self::with_flag),
    /// or given a value that says on ([`flag_value`]).
    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
            || self
                .get(name)
                .is_some_and(|value| flag_value(value) == Some(true))
    }

    /// Refuses what game `game`, taking `known`, cannot take: an option it
    /// does not have, a value for a flag that says neither on nor off, a
    /// flag where a value is needed. Every shell's options pass here, so
    /// that none runs a game other than the one asked for.
    pub fn check(&self, game: &str, known: &[OptionSpec]) -> Result<()> {
        let given = self.values.keys().chain(&self.flags);
        for name in given {
            let Some(spec) = known.iter().find(|spec| spec.name == name) else {
                let names: Vec<&str> = known.iter().map(|spec| spec.name).collect();
                return Err(Error::InvalidParameter(format!(
                    "{game} has no option {} (its options: {})",
                    quoted(name),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )));
            };
            match (spec.value, self.get(name)) {
                (Some(placeholder), None) => {
                    return Err(Error::InvalidParameter(format!(
                        "--{name} needs a value ({placeholder})"
                    )));
                }
                (None, Some(value)) if flag_value(value).is_none() => {
                    return Err(Error::InvalidParameter(format!(
                        "--{name} is a flag, on or off (true or false, 1 or 0), not {}",
                        quoted(value)
                    )));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Option `name` parsed as a number, if given.
    pub fn number<T: FromStr>(&self, name: &str) -> Result<Option<T>> {
        self.get(name)
            .map(|text| {
                text.trim().parse().map_err(|_| {
                    Error::InvalidParameter(format!(
                        "invalid value {} for --{name}: expected a whole number",
                        quoted(text)
                    ))
                })
            })
            .transpose()
    }

    /// Option `name` parsed as a number; an error names it when it is missing.
    pub fn required_number<T: FromStr>(&self, name: &str) -> Result<T> {
        self.number(name)?
            .ok_or_else(|| Error::InvalidParameter(format!("--{name} is required")))
    }
}

/// A flag's value as text: on (`true`, `1`, or nothing) or off (`false`,
/// `0`); `None` for anything else. The one spelling every shell accepts.
pub fn flag_value(text: &str) -> Option<bool> {
    match text.trim() {
        "" | "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

/// What a one-player game gives the registry.
pub trait Registered: Space + Picture + Sized {
    /// The name on the command line: `pancake`, `pocket-cube`.
    const NAME: &'static str;
    /// One line for `--help` and `bitsolve games`.
    const SUMMARY: &'static str;
    /// The options the game takes.
    const OPTIONS: &'static [OptionSpec];

    /// The game these options describe, or a one-line error saying why not.
    fn from_options(options: &GameOptions) -> Result<Self>;
}

/// What a two-player game gives the registry.
pub trait RegisteredTwoPlayer: TwoPlayerGame + Sized {
    /// The name on the command line: `fox-geese`.
    const NAME: &'static str;
    /// One line for `--help` and `bitsolve games`.
    const SUMMARY: &'static str;
    /// The options the game takes.
    const OPTIONS: &'static [OptionSpec];
    /// The first word of its tables' descriptors, when it is not the name
    /// (Morris's tables say "morris nine stones=12 moving"): how a store's
    /// file is traced back to its game.
    const DESCRIPTOR_WORD: &'static str = Self::NAME;

    /// The game these options describe, or a one-line error saying why not.
    fn from_options(options: &GameOptions) -> Result<Self>;
}
