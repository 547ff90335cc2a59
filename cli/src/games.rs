//! The games as command-line subcommands, made from the library's registry
//! ([`bitsolve::games::registry`]): each registered game becomes a subcommand
//! whose flags are its options, and the parsed subcommand is a name plus
//! options that the registry opens. One-player games are the subcommands
//! of `bfs`, `show`, `solve`, ...; two-player games those of `retro`,
//! `query` and `play`; positional games (and `pg FILE`) those of `qbf`.

use std::ops::Deref;
use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Command, FromArgMatches, Subcommand};

use bitsolve::error::Result;
use bitsolve::games::registry::{self, GameKind, GameOptions};
use bitsolve::jobs::{GameSpec, TwoPlayerSpec};

/// A one-player game chosen on the command line (the library's
/// [`GameSpec`], parsed by clap).
#[derive(Clone, Debug)]
pub struct GameArg(pub GameSpec);

impl Deref for GameArg {
    type Target = GameSpec;

    fn deref(&self) -> &GameSpec {
        &self.0
    }
}

/// A two-player game chosen on the command line.
#[derive(Clone, Debug)]
pub struct TwoPlayerArg(pub TwoPlayerSpec);

impl Deref for TwoPlayerArg {
    type Target = TwoPlayerSpec;

    fn deref(&self) -> &TwoPlayerSpec {
        &self.0
    }
}

/// A positional game chosen on the command line (`qbf`): a registered one
/// by name and options, or one read from a file.
#[derive(Clone, Debug)]
pub enum PositionalSpec {
    Registered(GameSpec),
    /// A game in the Positional Game Description format (.pg).
    Pg(PathBuf),
}

/// The subcommand that reads a positional game from a file.
const PG: &str = "pg";

fn entries_of(kinds: &'static [GameKind]) -> impl Iterator<Item = registry::Entry> {
    registry::entries()
        .into_iter()
        .filter(move |e| kinds.contains(&e.kind))
}

/// The game subcommand `matches` hold, as a name and options.
fn spec_from(matches: &ArgMatches) -> std::result::Result<GameSpec, clap::Error> {
    let Some((name, game)) = matches.subcommand() else {
        return Err(clap::Error::raw(
            clap::error::ErrorKind::MissingSubcommand,
            "a game is required",
        ));
    };
    let entry = registry::entry(name)
        .map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidSubcommand, e.to_string()))?;
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

/// `command` with a subcommand for every game of `kinds`, its options as flags.
fn with_games(mut command: Command, kinds: &'static [GameKind]) -> Command {
    for entry in entries_of(kinds) {
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

/// clap's subcommand traits for a spec type over the games of some kinds.
macro_rules! game_subcommands {
    ($spec:ty, $kinds:expr, $wrap:expr) => {
        impl FromArgMatches for $spec {
            fn from_arg_matches(matches: &ArgMatches) -> std::result::Result<Self, clap::Error> {
                spec_from(matches).map($wrap)
            }

            fn update_from_arg_matches(
                &mut self,
                matches: &ArgMatches,
            ) -> std::result::Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }

        impl Subcommand for $spec {
            fn augment_subcommands(command: Command) -> Command {
                with_games(command, $kinds)
            }

            fn augment_subcommands_for_update(command: Command) -> Command {
                with_games(command, $kinds)
            }

            fn has_subcommand(name: &str) -> bool {
                entries_of($kinds).any(|e| e.name == name)
            }
        }
    };
}

game_subcommands!(GameArg, &[GameKind::OnePlayer], GameArg);
game_subcommands!(TwoPlayerArg, &[GameKind::TwoPlayer], |spec| {
    TwoPlayerArg(TwoPlayerSpec(spec))
});
game_subcommands!(
    AnyGameSpec,
    &[GameKind::OnePlayer, GameKind::TwoPlayer],
    AnyGameSpec
);

/// A game of either kind (`bench`: BFS of a one-player game, retrograde
/// analysis of a two-player one).
#[derive(Clone, Debug)]
pub struct AnyGameSpec(pub GameSpec);

impl AnyGameSpec {
    pub fn kind(&self) -> Result<GameKind> {
        Ok(registry::entry(&self.0.name)?.kind)
    }
}

impl FromArgMatches for PositionalSpec {
    fn from_arg_matches(matches: &ArgMatches) -> std::result::Result<Self, clap::Error> {
        match matches.subcommand() {
            Some((PG, file)) => {
                let file = file
                    .get_one::<PathBuf>("file")
                    .expect("clap requires the file");
                Ok(PositionalSpec::Pg(file.clone()))
            }
            _ => spec_from(matches).map(PositionalSpec::Registered),
        }
    }

    fn update_from_arg_matches(
        &mut self,
        matches: &ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The registry's positional games, then `pg FILE`.
fn with_positional_games(command: Command) -> Command {
    let pg = Command::new(PG)
        .about("A game in the Positional Game Description format (.pg); its #times give the depth and turn order")
        .arg(
            Arg::new("file")
                .value_name("FILE")
                .required(true)
                .value_parser(clap::value_parser!(PathBuf)),
        );
    with_games(command, &[GameKind::Positional]).subcommand(pg)
}

impl Subcommand for PositionalSpec {
    fn augment_subcommands(command: Command) -> Command {
        with_positional_games(command)
    }

    fn augment_subcommands_for_update(command: Command) -> Command {
        with_positional_games(command)
    }

    fn has_subcommand(name: &str) -> bool {
        name == PG || entries_of(&[GameKind::Positional]).any(|e| e.name == name)
    }
}
