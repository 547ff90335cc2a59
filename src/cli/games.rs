//! The games as command-line subcommands, made from the library's registry
//! ([`crate::games::registry`]): each registered one-player game becomes a
//! subcommand whose flags are its options, and the parsed subcommand is a
//! name plus options that the registry opens.

use clap::{Arg, ArgAction, ArgMatches, Command, FromArgMatches, Subcommand};

use crate::error::Result;
use crate::games::registry::{self, GameKind, GameOptions, SpaceVisitor};

/// A game chosen on the command line: its registered name and options.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub name: String,
    pub options: GameOptions,
}

impl GameSpec {
    /// Opens the game and runs `visitor` on it.
    pub fn visit<V: SpaceVisitor>(&self, visitor: V) -> Result<V::Output> {
        registry::visit(&self.name, &self.options, visitor)
    }
}

fn one_player_entries() -> impl Iterator<Item = registry::Entry> {
    registry::entries()
        .into_iter()
        .filter(|e| e.kind == GameKind::OnePlayer)
}

impl FromArgMatches for GameSpec {
    fn from_arg_matches(matches: &ArgMatches) -> std::result::Result<Self, clap::Error> {
        let Some((name, game)) = matches.subcommand() else {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::MissingSubcommand,
                "a game is required",
            ));
        };
        let entry = registry::entry(name).map_err(|e| {
            clap::Error::raw(clap::error::ErrorKind::InvalidSubcommand, e.to_string())
        })?;
        let mut options = GameOptions::default();
        for spec in entry.options {
            match spec.value {
                Some(_) => {
                    if let Some(value) = game.get_one::<String>(spec.name) {
                        options = options.with(spec.name, value);
                    }
                }
                None => {
                    if game.get_flag(spec.name) {
                        options = options.with_flag(spec.name);
                    }
                }
            }
        }
        Ok(GameSpec {
            name: name.to_string(),
            options,
        })
    }

    fn update_from_arg_matches(
        &mut self,
        matches: &ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Subcommand for GameSpec {
    fn augment_subcommands(mut command: Command) -> Command {
        for entry in one_player_entries() {
            let mut game = Command::new(entry.name).about(entry.summary);
            for spec in entry.options {
                let mut arg = Arg::new(spec.name).long(spec.name).help(spec.help);
                arg = match spec.value {
                    Some(placeholder) => arg.value_name(placeholder).action(ArgAction::Set),
                    None => arg.action(ArgAction::SetTrue),
                };
                if let Some(default) = spec.default {
                    arg = arg.default_value(default);
                }
                game = game.arg(arg);
            }
            command = command.subcommand(game);
        }
        command
    }

    fn augment_subcommands_for_update(command: Command) -> Command {
        Self::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        one_player_entries().any(|e| e.name == name)
    }
}
