//! The fixed-size header at the start of every table file: what the table
//! is (its identity), whether its body checksums can be trusted (its seal),
//! and the progress record of the run that writes it.
//!
//! Layout (little-endian), [`HEADER_LEN`] bytes in all:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `BITSOLVE` |
//! | 8..12 | format version |
//! | 12..16 | bits per state |
//! | 16..24 | states |
//! | 24..32 | words per checksum chunk |
//! | 32..36 | seal: 1 sealed, 2 being written |
//! | 36..40 | descriptor length |
//! | 40..44 | definition length |
//! | 48..56 | identity hash (xxh3 of version, bits, states, definition) |
//! | 56..64 | xxh3 of the checksum trailer (the checksums of the last record) |
//! | 64.. | descriptor, then definition, then progress length and record |
//! | last 8 | xxh3 of everything before it |

use xxhash_rust::xxh3::xxh3_64;

/// The first 8 bytes of every table file.
pub const MAGIC: &[u8; 8] = b"BITSOLVE";
/// 3: identity hash, definition text, per-chunk body checksums and the seal
/// (version 2 had only a header checksum; version 1 fixed count fields).
pub const FORMAT_VERSION: u32 = 3;
/// Page-aligned, with room for a definition (a board picture) and a
/// progress record of a few thousand values.
pub const HEADER_LEN: usize = 64 * 1024;
const DESCRIPTOR_OFFSET: usize = 64;
/// Board paths are part of some descriptors; PATH_MAX is 4096.
pub const MAX_DESCRIPTOR_LEN: usize = 4096 - DESCRIPTOR_OFFSET;
const DEFINITION_OFFSET: usize = 4096;
/// The longest definition a header holds, in bytes.
pub const MAX_DEFINITION_LEN: usize = 16 * 1024;
const PROGRESS_LEN_OFFSET: usize = DEFINITION_OFFSET + MAX_DEFINITION_LEN;
const PROGRESS_OFFSET: usize = PROGRESS_LEN_OFFSET + 8;
const CHECKSUM_OFFSET: usize = HEADER_LEN - 8;
/// The longest progress record a header holds.
pub const MAX_PROGRESS_BYTES: usize = CHECKSUM_OFFSET - PROGRESS_OFFSET;

/// What a table file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableIdentity {
    /// The game, its parameters and the algorithm, e.g. "pancake n=12;
    /// two-bit BFS": names the file and is shown to people.
    pub descriptor: String,
    /// Everything else that defines the space, one `key=value` line each
    /// (board contents, layout and move fingerprints; see
    /// `crate::search::identity`): two runs may reuse each other's table only
    /// if these agree.
    pub definition: String,
    /// Bits per state in the body.
    pub bits_per_state: u32,
    /// States in the table.
    pub states: u64,
}

impl TableIdentity {
    /// A table that is never stored under a name a later run could reuse
    /// (scratch tables on the heap).
    pub fn scratch(descriptor: &str, bits_per_state: u32, states: u64) -> Self {
        TableIdentity {
            descriptor: descriptor.to_string(),
            definition: String::new(),
            bits_per_state,
            states,
        }
    }

    /// The same table cut to `states` states (a device's partial host copy).
    pub fn with_states(&self, states: u64) -> Self {
        TableIdentity {
            states,
            ..self.clone()
        }
    }

    /// The hash a store is recognised by.
    pub fn hash(&self) -> u64 {
        let mut bytes = Vec::with_capacity(self.definition.len() + self.descriptor.len() + 24);
        bytes.extend(FORMAT_VERSION.to_le_bytes());
        bytes.extend(self.bits_per_state.to_le_bytes());
        bytes.extend(self.states.to_le_bytes());
        bytes.extend(self.descriptor.as_bytes());
        bytes.push(0);
        bytes.extend(self.definition.as_bytes());
        xxh3_64(&bytes)
    }

    /// Why a table made for `self` cannot serve `wanted`: the first thing
    /// that differs, or `None` when they are the same table.
    pub fn difference(&self, wanted: &TableIdentity) -> Option<String> {
        if self.descriptor != wanted.descriptor
            || self.bits_per_state != wanted.bits_per_state
            || self.states != wanted.states
        {
            return Some(format!(
                "holds '{}' ({} bits x {} states), not '{}' ({} bits x {} states)",
                self.descriptor,
                self.bits_per_state,
                self.states,
                wanted.descriptor,
                wanted.bits_per_state,
                wanted.states
            ));
        }
        if self.definition == wanted.definition {
            return None;
        }
        let (mut stored, mut asked) = (self.definition.lines(), wanted.definition.lines());
        loop {
            match (stored.next(), asked.next()) {
                (Some(a), Some(b)) if a == b => continue,
                (a, b) => {
                    return Some(format!(
                        "was made for a different '{}': it has '{}' where this run has '{}' (remove the file to start afresh)",
                        self.descriptor,
                        a.unwrap_or("(nothing)"),
                        b.unwrap_or("(nothing)")
                    ));
                }
            }
        }
    }
}

/// Whether the body checksums in the file's trailer describe its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seal {
    /// The checksums were written after the body's last change.
    Sealed,
    /// A run was writing the body (and may have been stopped meanwhile):
    /// the body may differ from the checksums, which are those of its last
    /// record.
    Writing,
}

/// A decoded header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// What the table holds.
    pub identity: TableIdentity,
    /// Whether the trailer's checksums vouch for the body.
    pub seal: Seal,
    /// Words per checksum chunk.
    pub chunk_words: u64,
    /// xxh3 of the checksum trailer on disk, whose checksums are those of
    /// the body as of the last record or seal.
    pub trailer_hash: u64,
    /// The progress record of the run that writes the table, opaque here (empty
    /// in a new table).
    pub progress: Vec<u8>,
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// Checks that `identity` fits a header (descriptor and definition lengths).
pub(crate) fn check_fits(identity: &TableIdentity) -> std::result::Result<(), String> {
    if identity.descriptor.len() > MAX_DESCRIPTOR_LEN {
        return Err(format!(
            "the table descriptor is {} bytes, longer than the {MAX_DESCRIPTOR_LEN} a store header holds",
            identity.descriptor.len()
        ));
    }
    if identity.definition.len() > MAX_DEFINITION_LEN {
        return Err(format!(
            "the space's definition is {} bytes, longer than the {MAX_DEFINITION_LEN} a store header holds",
            identity.definition.len()
        ));
    }
    Ok(())
}

impl Header {
    /// The header's bytes. The caller has checked the lengths
    /// (`check_fits`, [`MAX_PROGRESS_BYTES`]).
    pub fn encode(&self) -> Vec<u8> {
        let identity = &self.identity;
        let mut header = vec![0u8; HEADER_LEN];
        header[0..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        header[12..16].copy_from_slice(&identity.bits_per_state.to_le_bytes());
        header[16..24].copy_from_slice(&identity.states.to_le_bytes());
        header[24..32].copy_from_slice(&self.chunk_words.to_le_bytes());
        let seal: u32 = match self.seal {
            Seal::Sealed => 1,
            Seal::Writing => 2,
        };
        header[32..36].copy_from_slice(&seal.to_le_bytes());
        let descriptor = identity.descriptor.as_bytes();
        let definition = identity.definition.as_bytes();
        header[36..40].copy_from_slice(&(descriptor.len() as u32).to_le_bytes());
        header[40..44].copy_from_slice(&(definition.len() as u32).to_le_bytes());
        header[48..56].copy_from_slice(&identity.hash().to_le_bytes());
        header[56..64].copy_from_slice(&self.trailer_hash.to_le_bytes());
        header[DESCRIPTOR_OFFSET..DESCRIPTOR_OFFSET + descriptor.len()].copy_from_slice(descriptor);
        header[DEFINITION_OFFSET..DEFINITION_OFFSET + definition.len()].copy_from_slice(definition);
        let progress = &self.progress;
        header[PROGRESS_LEN_OFFSET..PROGRESS_OFFSET]
            .copy_from_slice(&(progress.len() as u64).to_le_bytes());
        header[PROGRESS_OFFSET..PROGRESS_OFFSET + progress.len()].copy_from_slice(progress);
        let checksum = xxh3_64(&header[..CHECKSUM_OFFSET]);
        header[CHECKSUM_OFFSET..].copy_from_slice(&checksum.to_le_bytes());
        header
    }

    /// Parses a header; `Err` says why it is not a valid bitsolve header.
    pub fn decode(header: &[u8]) -> std::result::Result<Header, String> {
        if header.len() < HEADER_LEN || &header[0..8] != MAGIC {
            return Err("not a bitsolve table (bad magic)".into());
        }
        let version = read_u32(header, 8);
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}, this build reads {FORMAT_VERSION} (remove it, or use the bitsolve that wrote it)"
            ));
        }
        if read_u64(header, CHECKSUM_OFFSET) != xxh3_64(&header[..CHECKSUM_OFFSET]) {
            return Err("header checksum mismatch (the header is damaged)".into());
        }
        let descriptor_len = read_u32(header, 36) as usize;
        let definition_len = read_u32(header, 40) as usize;
        let progress_len = read_u64(header, PROGRESS_LEN_OFFSET) as usize;
        if descriptor_len > MAX_DESCRIPTOR_LEN
            || definition_len > MAX_DEFINITION_LEN
            || progress_len > MAX_PROGRESS_BYTES
        {
            return Err("header fields out of range".into());
        }
        let text = |at: usize, len: usize, what: &str| {
            String::from_utf8(header[at..at + len].to_vec())
                .map_err(|_| format!("the {what} is not UTF-8"))
        };
        let identity = TableIdentity {
            descriptor: text(DESCRIPTOR_OFFSET, descriptor_len, "descriptor")?,
            definition: text(DEFINITION_OFFSET, definition_len, "definition")?,
            bits_per_state: read_u32(header, 12),
            states: read_u64(header, 16),
        };
        if identity.hash() != read_u64(header, 48) {
            return Err("identity hash does not match the identity it covers".into());
        }
        let seal = match read_u32(header, 32) {
            1 => Seal::Sealed,
            2 => Seal::Writing,
            other => return Err(format!("unknown seal state {other}")),
        };
        let chunk_words = read_u64(header, 24);
        if chunk_words == 0 || identity.bits_per_state == 0 || identity.bits_per_state > 64 {
            return Err("header fields out of range".into());
        }
        Ok(Header {
            identity,
            seal,
            chunk_words,
            trailer_hash: read_u64(header, 56),
            progress: header[PROGRESS_OFFSET..PROGRESS_OFFSET + progress_len].to_vec(),
        })
    }
}

/// A file name made of the descriptor's letters and digits; a long
/// descriptor (a board given by a long path) is cut and told apart by a
/// hash of the whole.
pub fn file_name_for(descriptor: &str) -> String {
    const LONGEST: usize = 120;
    let mut name = String::new();
    for c in descriptor.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let mut name = name.trim_end_matches('-').to_string();
    if name.len() > LONGEST {
        name.truncate(LONGEST - 17);
        name = format!(
            "{}-{:016x}",
            name.trim_end_matches('-'),
            xxh3_64(descriptor.as_bytes())
        );
    }
    format!("{name}.bst")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> TableIdentity {
        TableIdentity {
            descriptor: "test game n=3; two-bit".into(),
            definition: "board=...\nmoves=1234".into(),
            bits_per_state: 2,
            states: 1000,
        }
    }

    fn header() -> Header {
        Header {
            identity: identity(),
            seal: Seal::Writing,
            chunk_words: 1 << 17,
            trailer_hash: 99,
            progress: vec![1, 2, 3, 4, 5],
        }
    }

    #[test]
    fn headers_round_trip_and_every_flipped_byte_is_refused() {
        let bytes = header().encode();
        assert_eq!(Header::decode(&bytes).unwrap(), header());
        // Every byte the header's fields use, and a sample of the rest.
        for at in (0..200).chain((200..HEADER_LEN).step_by(997)) {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x10;
            assert!(Header::decode(&damaged).is_err(), "flip at {at} accepted");
        }
    }

    #[test]
    fn differences_name_what_differs() {
        let stored = identity();
        assert_eq!(stored.difference(&identity()), None);
        let mut edited = identity();
        edited.definition = "board=..o\nmoves=1234".into();
        let message = stored.difference(&edited).unwrap();
        assert!(
            message.contains("'board=...'") && message.contains("'board=..o'"),
            "{message}"
        );
        assert_ne!(stored.hash(), edited.hash());
        let other = TableIdentity {
            states: 999,
            ..identity()
        };
        assert!(
            stored
                .difference(&other)
                .unwrap()
                .contains("not 'test game")
        );
    }

    #[test]
    fn file_names_are_tame_and_long_descriptors_stay_apart() {
        assert_eq!(
            file_name_for("pancake n=12; two-bit BFS"),
            "pancake-n-12-two-bit-bfs.bst"
        );
        let long = |end: &str| format!("peg-solitaire /{}/{end}.board", "d".repeat(300));
        let (a, b) = (file_name_for(&long("a")), file_name_for(&long("b")));
        assert!(a.len() <= 124 && a != b, "{a} {b}");
    }
}
