//! The stores the explorer serves: directories named on the command line,
//! known to clients only by their index, and read only. Their table files
//! are listed from the directory itself (a client never names a path), with
//! what the cache found when it last read each; tables once read stay in a
//! cache shared by the workers, answered from only while their files are
//! unchanged.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use serde_json::{Value as Json, json};

use super::definitions::Definitions;
use super::request::{Failure, Parameters};
use bitsolve::database::{Database, Examined, StoredGame, TableCache, game_of, table_summary};
use bitsolve::error::{Error, Result};
use bitsolve::games::registry::{self, GameKind};
use bitsolve::games::{TwoPlayerGame, TwoPlayerVisitor};
use bitsolve::search::two_bit_bfs::KEEPING_DEPTHS;

pub struct Store {
    /// The directory's own name, for people (its path stays on the server).
    pub name: String,
    pub dir: PathBuf,
    /// The last listing of the store's tables and game, with what it was
    /// made from: answered again while nothing it depends on has changed.
    listing: Mutex<Option<Listing>>,
}

/// A store's tables and game as `/api/stores` lists them, and the key it
/// was made under.
#[derive(Clone)]
struct Listing {
    key: Vec<FileKey>,
    tables: Vec<Json>,
    game: Json,
}

/// What a table file's entry in a listing depends on: its name, length,
/// modification time and inode (a rewrite or a swap changes one of them),
/// and what the cache found when it last read it.
#[derive(Clone, PartialEq, Eq)]
struct FileKey {
    path: PathBuf,
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
    examined: Option<Examined>,
}

impl Store {
    /// The store's table files ([`tables`]) and game ([`game`]), made
    /// again only when a table file appeared, went, changed on disk or
    /// was read by the cache since the last listing: a listing reads every
    /// header and looks for every layer's file (a Fox-and-Geese store:
    /// hundreds of milliseconds), its key a directory read and a stat per
    /// table.
    pub fn listing(&self, cache: &TableCache) -> (Vec<Json>, Json) {
        let key = table_paths(&self.dir)
            .into_iter()
            .map(|path| {
                let metadata = std::fs::metadata(&path).ok();
                FileKey {
                    len: metadata.as_ref().map_or(0, |m| m.len()),
                    modified: metadata.as_ref().and_then(|m| m.modified().ok()),
                    inode: metadata
                        .as_ref()
                        .map_or(0, std::os::unix::fs::MetadataExt::ino),
                    examined: cache.examined(&path),
                    path,
                }
            })
            .collect::<Vec<FileKey>>();
        let mut held = self.listing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(listing) = held.as_ref().filter(|l| l.key == key) {
            return (listing.tables.clone(), listing.game.clone());
        }
        let tables = tables(self, cache);
        let game = game(self, &tables, cache);
        *held = Some(Listing {
            key,
            tables: tables.clone(),
            game: game.clone(),
        });
        (tables, game)
    }
}

pub struct Stores {
    pub list: Vec<Store>,
    /// The definition files requests may open (`serve --definition`).
    pub definitions: Definitions,
    /// The tables opened so far (two-player layers and distances,
    /// one-player tables of depths), opened once for every worker.
    pub tables: TableCache,
}

/// What a table file holds, from its descriptor's last part.
fn kind_of(descriptor: &str) -> &'static str {
    match descriptor.rsplit("; ").next().unwrap_or_default() {
        "two-bit BFS" | "one-bit BFS" => "bfs",
        KEEPING_DEPTHS => "depths",
        "one-bit reachability" => "reachability",
        "retrograde values" => "retro values",
        "retrograde distances" | "retrograde distances in bytes" => "retro distances",
        _ => "other",
    }
}

impl Stores {
    /// The stores named on the command line: each must be a directory.
    /// Their tables take at most `table_memory` bytes (default: the
    /// cache's own).
    pub fn open(
        dirs: &[PathBuf],
        table_memory: Option<u64>,
        definitions: Definitions,
    ) -> Result<Stores> {
        let mut list = Vec::new();
        for dir in dirs {
            if !dir.is_dir() {
                return Err(Error::InvalidParameter(format!(
                    "--store {} is not a directory",
                    dir.display()
                )));
            }
            let dir = dir
                .canonicalize()
                .map_err(|e| Error::on_file("open", dir, e))?;
            let name = dir
                .file_name()
                .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into());
            list.push(Store {
                name,
                dir,
                listing: Mutex::new(None),
            });
        }
        Ok(Stores {
            list,
            definitions,
            tables: table_memory.map_or_else(TableCache::default, TableCache::with_limit),
        })
    }

    /// The store the `store` parameter names by index, if it names one.
    pub fn chosen(&self, parameters: &Parameters) -> std::result::Result<Option<&Store>, Failure> {
        let Some(text) = parameters.get("store") else {
            return Ok(None);
        };
        let index: usize = text.parse().map_err(|_| {
            Failure::bad_request(format!(
                "store must be a store's number (0..{}), got '{}'",
                self.list.len(),
                super::request::printable(text)
            ))
        })?;
        self.list.get(index).map(Some).ok_or_else(|| {
            Failure::not_found(format!(
                "there is no store {index}: this server has {}",
                self.list.len()
            ))
        })
    }
}

/// A store's table files, each with what its header says: JSON objects
/// `{file, descriptor, kind, states, bits_per_state, status, checked,
/// paged, problem, complete, layers}` (`layers`: states per BFS layer of a
/// finished BFS table). `status` is the header's (`sealed`, `being
/// written`), or `unreadable`, or what the cache found when it last read
/// the file: `changed on disk` since, or `refused`; `problem` says why, and
/// `checked` is true while the file is as the cache read and checked it
/// (`paged` true: too large to read whole, it is read a checked chunk at a
/// time, and `checked` covers its header, its checksums and the chunks
/// read so far).
/// Anything named like a table is listed (a FIFO or a directory is
/// `unreadable`, with why).
fn tables(store: &Store, cache: &TableCache) -> Vec<Json> {
    table_paths(&store.dir)
        .iter()
        .map(|path| table(path, cache))
        .collect()
}

/// The files in `dir` named like tables, in order.
fn table_paths(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|x| x == "bst"))
        .collect();
    files.sort();
    files
}

fn table(path: &Path, cache: &TableCache) -> Json {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let summary = match table_summary(path) {
        Ok(summary) => summary,
        Err(error) => {
            return json!({"file": file, "status": "unreadable", "problem": error.to_string()});
        }
    };
    let identity = &summary.identity;
    let kind = kind_of(&identity.descriptor);
    let complete = summary.complete;
    let layers = match kind {
        "bfs" | "depths" if complete => Some(summary.counts.clone()),
        _ => None,
    };
    let sealed = if summary.sealed {
        "sealed"
    } else {
        "being written"
    };
    let examined = cache.examined(path);
    let (status, problem) = match &examined {
        Some(Examined::Changed(how)) => (
            "changed on disk",
            Some(format!(
                "changed on disk since the server read it ({how}): it is read and checked again before anything is answered from it"
            )),
        ),
        Some(Examined::Refused(why)) => ("refused", Some(why.clone())),
        Some(Examined::Intact | Examined::Paged) | None => (sealed, None),
    };
    json!({
        "file": file,
        "descriptor": identity.descriptor,
        "kind": kind,
        "states": identity.states,
        "bits_per_state": identity.bits_per_state,
        "status": status,
        "checked": matches!(examined, Some(Examined::Intact | Examined::Paged)),
        "paged": examined == Some(Examined::Paged),
        "problem": problem,
        "complete": complete,
        "layers": layers,
    })
}

/// The game a store's tables solve (the first table that names one):
/// `{name, kind, options: {name: value, flag: "1"}, layers}`, `layers`
/// for a two-player game listing those the store holds, `[{layer, name,
/// states}]` (states: positions stored, one per symmetry class where the
/// game is reduced); `null` when no table names a registered game.
fn game(store: &Store, listed: &[Json], cache: &TableCache) -> Json {
    let Some(found) = listed
        .iter()
        .filter_map(|table| table["descriptor"].as_str())
        .find_map(game_of)
    else {
        return Json::Null;
    };
    let options: serde_json::Map<String, Json> = found
        .options
        .iter()
        .map(|(name, value)| (name.clone(), value.as_deref().unwrap_or("1").into()))
        .collect();
    let layers = match found.kind {
        GameKind::TwoPlayer => {
            let held = HeldLayers {
                store,
                found: &found,
                cache,
            };
            registry::visit_two_player(found.name, &found.game_options(), held).ok()
        }
        _ => None,
    };
    json!({
        "name": found.name,
        "kind": found.kind,
        "options": options,
        "layers": layers,
    })
}

/// The layers of a two-player game a store holds, with their sizes.
struct HeldLayers<'a> {
    store: &'a Store,
    found: &'a StoredGame,
    cache: &'a TableCache,
}

impl TwoPlayerVisitor for HeldLayers<'_> {
    type Output = Json;

    fn visit<G: TwoPlayerGame>(self, game: &G) -> Result<Json> {
        let database = Database::new(game, self.found.name, &self.store.dir, self.cache);
        let layers: Vec<Json> = database
            .held_layers()
            .into_iter()
            .map(|layer| {
                json!({
                    "layer": layer,
                    "name": game.layer_name(layer),
                    "states": game.layer_size(layer),
                })
            })
            .collect();
        Ok(layers.into())
    }
}
