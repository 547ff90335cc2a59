//! `bitsolve query` and `play`: what a database of solved layers knows
//! about a position of a two-player game, and a game against its perfect
//! player in the terminal. Written once for every [`TwoPlayerGame`].

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use super::games::TwoPlayerArg;
use bitsolve::database::{Database, TableCache, describe, describe_with};
use bitsolve::error::{Error, Result};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::jobs::Report;
use bitsolve::jobs::query::{
    Placement, PlacementsReport, chosen_start, placements, query, store_of,
};
use bitsolve::progress::terminal::Display;
use bitsolve::space::Player;

#[derive(Args, Debug)]
pub struct QueryArgs {
    #[command(subcommand)]
    game: TwoPlayerArg,
    /// The database directory written by `bitsolve retro --store`.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// The position in the game's text form (Fox-and-Geese: 33 points in
    /// cell order, 'F' fox, 'g' goose, '.' empty; Dodgem: rows from the
    /// top, 'B' blue, 'R' red, '.' empty, separated by '/'), then ':' and
    /// the side to move.
    #[arg(long, global = true)]
    position: Option<String>,
    /// Instead of --position: the game's start, with this many pieces
    /// where the game has several (Fox-and-Geese: geese; 13 and 17 are the
    /// traditional starts, the fox in the centre; Nine Men's Morris: the
    /// empty board, every stone in hand, with no count).
    #[arg(
        long,
        value_name = "PIECES",
        global = true,
        num_args = 0..=1,
        conflicts_with = "position"
    )]
    start: Option<Option<usize>>,
    /// With --start: the side to move first (default: the game's;
    /// Fox-and-Geese: the geese).
    #[arg(long, value_name = "SIDE", global = true, requires = "start")]
    to_move: Option<String>,
    /// With --start: the start with its lone piece (Fox-and-Geese's fox)
    /// on every free point instead, each point's value, and the best and
    /// worst of them for that piece.
    #[arg(long, global = true, requires = "start")]
    placements: bool,
    /// Print one JSON object on stdout.
    #[arg(long, global = true)]
    json: bool,
}

struct Query<'a> {
    args: &'a QueryArgs,
}

pub(super) fn run_query(args: QueryArgs) -> Result<()> {
    args.game.visit(Query { args: &args })
}

impl TwoPlayerVisitor for Query<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<()> {
        let args = self.args;
        let dir = store_of(&args.store)?;
        let (cache, display) = (TableCache::for_few_questions(), Display::new(None, None));
        let start = match args.start {
            Some(pieces) => Some(chosen_start(game, pieces, args.to_move.as_deref())?),
            None => None,
        };
        if args.placements {
            let start = start.expect("clap requires --start");
            let mut database = Database::new(game, args.game.name(), dir, &cache).showing(&display);
            let report = placements(game, &mut database, &start);
            display.finish();
            let report = report?;
            if args.json {
                println!("{}", report.to_json());
            } else {
                print_placements(game, &start, &report);
            }
            return Ok(());
        }
        let start_text = start.map(|start| game.position_text(&start));
        let text = start_text
            .as_ref()
            .or(args.position.as_ref())
            .ok_or_else(|| Error::InvalidParameter("give --position or --start".into()))?;
        if args.json {
            let report = query(game, args.game.name(), dir, &cache, text, &display);
            display.finish();
            println!("{}", report?.to_json());
            return Ok(());
        }
        let position = game.parse_position(text)?;
        let mut database = Database::new(game, args.game.name(), dir, &cache).showing(&display);
        let value = database.value(&position)?;
        let distance = database.distance(&position)?;
        let moves = database.moves(&position)?;
        display.finish();
        print!("{}", game.draw(&position));
        println!("value: {}", describe_with(game, value, distance));
        for answer in moves {
            println!(
                "  {:<8} {}",
                answer.name,
                describe_with(game, answer.value, answer.distance)
            );
        }
        Ok(())
    }
}

/// [`placements`] for people: one line a point, then the best and worst.
fn print_placements<G: TwoPlayerGame>(game: &G, start: &G::Position, report: &PlacementsReport) {
    print!("{}", game.draw(start));
    let piece = &report.piece;
    let line = |row: &Placement| match row.distance {
        Some(plies) => format!("{} in {plies} plies", row.value),
        None => row.value.clone(),
    };
    println!("the {piece} on each free point instead:");
    for row in &report.placements {
        println!("  {:<4} {}", row.point, line(row));
    }
    let rows = &report.placements;
    let alike = |row: &Placement| (row.value.clone(), row.distance);
    if rows
        .windows(2)
        .all(|pair| alike(&pair[0]) == alike(&pair[1]))
    {
        if let Some(first) = rows.first() {
            println!("every placement: {}", line(first));
        }
        return;
    }
    for (which, row) in [("best", &report.best), ("worst", &report.worst)] {
        if let Some(row) = row {
            println!("{which} for the {piece}: {} ({})", row.point, line(row));
        }
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(subcommand)]
    game: TwoPlayerArg,
    /// The database directory written by `bitsolve retro --store`.
    #[arg(long, value_name = "DIR", global = true)]
    store: Option<PathBuf>,
    /// The side you play (fox or geese; blue or red); the program plays the
    /// other perfectly.
    #[arg(long, global = true)]
    side: Option<String>,
    /// Start position (default: the game's start; Fox-and-Geese: the fox in
    /// the centre and the geese on the points of the lowest rows they fill,
    /// the geese to move).
    #[arg(long, global = true)]
    position: Option<String>,
    /// Fox-and-Geese: the number of geese of the default start (8; 13
    /// and 17 are the traditional starts).
    #[arg(long, global = true, conflicts_with = "position")]
    geese: Option<usize>,
    /// The side to move at the start (default: the game's; Fox-and-Geese:
    /// the geese).
    #[arg(long, value_name = "SIDE", global = true, conflicts_with = "position")]
    to_move: Option<String>,
}

struct Play<'a> {
    args: &'a PlayArgs,
}

pub(super) fn run_play(args: PlayArgs) -> Result<()> {
    args.game.visit(Play { args: &args })
}

impl TwoPlayerVisitor for Play<'_> {
    type Output = ();

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<()> {
        let args = self.args;
        let dir = store_of(&args.store)?;
        let sides = [Player::First, Player::Second].map(|p| game.side_name(p));
        let human = match args.side.as_deref() {
            Some(name) if name == sides[0] => Player::First,
            Some(name) if name == sides[1] => Player::Second,
            _ => {
                return Err(Error::InvalidParameter(format!(
                    "give --side {}|{}",
                    sides[0], sides[1]
                )));
            }
        };
        let mut position = match &args.position {
            Some(text) => game.parse_position(text)?,
            None => chosen_start(game, args.geese, args.to_move.as_deref())?,
        };
        let (cache, display) = (TableCache::for_few_questions(), Display::new(None, None));
        let mut database = Database::new(game, args.game.name(), dir, &cache).showing(&display);
        // Check the database answers before the first move.
        database.value(&position)?;
        display.finish();
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut seed = 0x2545_f491_4f6c_dd1du64 ^ game.locate(&position).1;
        loop {
            print!("{}", game.draw(&position));
            let value = database.value(&position)?;
            let distance = database.distance(&position)?;
            println!("value: {}", describe_with(game, value, distance));
            let moves = game.moves(&position);
            let mover = game.side_to_move(&position);
            // Without moves (or pieces) the rules have decided the
            // position, and its value says how.
            if moves.is_empty() {
                println!("no move left: {}", describe(game, value));
                return Ok(());
            }
            if game.locate(&position).0 == 0 {
                println!("no pieces left: {}", describe(game, value));
                return Ok(());
            }
            let next = if mover == human {
                let names: Vec<String> =
                    moves.iter().map(|m| game.move_name(&position, m)).collect();
                print!("your move ({}), or 'quit': ", names.join(" "));
                std::io::stdout().flush().ok();
                let Some(line) = read_move_line(&mut input)? else {
                    return Ok(());
                };
                let answer = line.trim().replace('X', "x");
                if answer == "quit" {
                    return Ok(());
                }
                match names
                    .iter()
                    .position(|name| *name == answer || name.replace('x', "-") == answer)
                {
                    Some(index) => moves[index].clone(),
                    None => {
                        println!("'{answer}' is not a legal move here");
                        continue;
                    }
                }
            } else {
                // One of the perfect player's moves; ties go by chance.
                let mut choices = database.best_moves(&position)?;
                seed = bitsolve::hash::splitmix64(seed);
                let chosen = choices.swap_remove((seed % choices.len() as u64) as usize);
                println!("bitsolve plays {}", chosen.name);
                chosen.position
            };
            position = next;
        }
    }
}

/// Most bytes of one line of `play`'s input: the longest move name is a
/// few characters, and a line is held whole before it is read.
const MAX_MOVE_LINE: usize = 256;

/// The next line of `input` without its line end, or `None` at the end of
/// the input. A line longer than [`MAX_MOVE_LINE`] bytes (say, `/dev/zero`
/// piped in) is refused without reading on, so input never fills memory.
fn read_move_line<R: BufRead>(input: &mut R) -> Result<Option<String>> {
    let mut line = Vec::new();
    let limit = MAX_MOVE_LINE as u64 + 1;
    std::io::Read::take(input, limit)
        .read_until(b'\n', &mut line)
        .map_err(|e| Error::io("cannot read the move", e))?;
    if line.is_empty() {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if line.len() as u64 == limit {
        return Err(Error::InvalidParameter(format!(
            "a move line longer than {MAX_MOVE_LINE} bytes: no move is that long"
        )));
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| Error::InvalidParameter("the move line is not UTF-8".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lines_are_read_whole_and_endless_ones_refused() {
        let mut input = std::io::Cursor::new(b"a1-b2\nquit".to_vec());
        assert_eq!(
            read_move_line(&mut input).unwrap().as_deref(),
            Some("a1-b2")
        );
        assert_eq!(read_move_line(&mut input).unwrap().as_deref(), Some("quit"));
        assert_eq!(read_move_line(&mut input).unwrap(), None);
        // A line of exactly the limit is still a line.
        let mut longest = vec![b'x'; MAX_MOVE_LINE];
        longest.push(b'\n');
        let mut input = std::io::Cursor::new(longest);
        assert_eq!(
            read_move_line(&mut input).unwrap().unwrap().len(),
            MAX_MOVE_LINE
        );
        // /dev/zero: refused after the limit, not read to the end.
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        let message = read_move_line(&mut zeros).unwrap_err().to_string();
        assert!(message.contains("longer than 256 bytes"), "{message}");
        let mut input = std::io::Cursor::new(vec![0xff, b'\n']);
        assert!(read_move_line(&mut input).is_err());
    }
}
