//! `bitsolve show`: a position drawn in the terminal, from its rank or its
//! text form, with its rank and its successors' ranks.

use clap::Args;

use super::games::GameArg;
use bitsolve::error::{Error, Result};
use bitsolve::games::registry::SpaceVisitor;
use bitsolve::space::{MoveFilter, Picture, Space};

/// `bitsolve show`'s arguments.
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(subcommand)]
    game: GameArg,
    /// The rank of the position.
    #[arg(long, global = true, conflicts_with = "position")]
    rank: Option<u64>,
    /// The position as text (see each game's format in docs/guide/usage.md); it may
    /// start with '-' (a burned pancake upside down).
    #[arg(long, global = true, allow_hyphen_values = true)]
    position: Option<String>,
}

pub(super) fn run(args: ShowArgs) -> Result<()> {
    args.game.visit(ShowCommand { args: &args })
}

struct ShowCommand<'a> {
    args: &'a ShowArgs,
}

impl SpaceVisitor for ShowCommand<'_> {
    type Output = ();

    fn visit<S: Space + Picture>(self, space: &S) -> Result<()> {
        let mut state = space.new_state();
        let rank = match (&self.args.rank, &self.args.position) {
            (Some(rank), _) => {
                if *rank >= space.size() {
                    return Err(Error::InvalidParameter(format!(
                        "rank {rank} is outside the space of {} ranks",
                        space.size()
                    )));
                }
                *rank
            }
            (None, Some(text)) => space.rank(&space.parse_position(text)?),
            (None, None) => {
                return Err(Error::InvalidParameter(
                    "give --rank R or --position TEXT".into(),
                ));
            }
        };
        space.unrank(rank, &mut state);
        let mut successors = Vec::new();
        space.expand(&state, MoveFilter::All, |successor| {
            successors.push(successor)
        });
        println!("{} · rank {rank}", space.descriptor());
        print!("{}", space.draw(&state));
        let listed: Vec<String> = successors.iter().map(|r| r.to_string()).collect();
        println!("{} moves, to ranks: {}", successors.len(), listed.join(" "));
        Ok(())
    }
}
