//! The library's layering, checked on its source: every top-level module of
//! `src/` may import only the modules [`MAY_IMPORT`] lists for it, so an
//! import only ever points down (docs/how-it-works.md).
//!
//! From the bottom: `error` and `diagram`; `hash`; `progress`; `table`;
//! `kernel`, then `space`; then two towers side by side, the engine
//! (`search` ← `backend`) and the rules (`games`), neither importing the
//! other; then `qbf`, then `database`, which use both towers; then `jobs`,
//! the whole requests the shells call. Tests are exempt: a `#[cfg(test)]`
//! item may reach any module to check its own against it.
//!
//! The shells are crates of their own beside the library, and siblings:
//! the command line (`cli/`), the explorer's server (`serve/`) and the
//! Python package (`python/`). Only the command line may use another shell
//! (it starts the server); [`shells_are_siblings`] checks their manifests
//! and sources.
//!
//! The check reads the source as text: it drops comments, string and
//! character literals and `#[cfg(test)]` items, then collects the top-level
//! module after every `crate::` (also inside `crate::{a::x, b}` groups) and
//! every `super::` chain that climbs out of its file's top-level module.
//!
//! Inside a folder, too, no circle: [`siblings_import_no_circle`] reads
//! every path a file names (`crate::…`, `super::…`, `self::…`) as the
//! module it reaches, and fails when modules of one folder reach each
//! other round a circle (`a.rs` uses `b.rs` and `b.rs` uses `a.rs`), a
//! module with its folder's files counting as one.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and the top-level modules it may import. A module
/// not in this table fails the test until someone decides where it sits.
const MAY_IMPORT: &[(&str, &[&str])] = &[
    // The bottom: the error type, and positions as drawing data.
    ("error", &[]),
    ("diagram", &["error"]),
    // Perfect hashes (rank / unrank).
    ("hash", &["error"]),
    // Reporting of long work, used by the tables and everything above.
    ("progress", &["error"]),
    // One- and two-bit tables, files, stores.
    ("table", &["error", "hash", "progress"]),
    // What a space gives a GPU backend, and the spaces themselves.
    ("kernel", &["error", "hash", "progress", "table"]),
    (
        "space",
        &["error", "diagram", "hash", "progress", "table", "kernel"],
    ),
    // The engine tower: drivers, then the backends that run their passes.
    (
        "search",
        &[
            "error", "diagram", "hash", "progress", "table", "kernel", "space",
        ],
    ),
    (
        "backend",
        &[
            "error", "diagram", "hash", "progress", "table", "kernel", "space", "search",
        ],
    ),
    // The rules tower, beside the engine: games know no algorithm or device.
    (
        "games",
        &[
            "error", "diagram", "hash", "progress", "table", "kernel", "space",
        ],
    ),
    // Above both towers: formulas for positional games, cross-checked
    // against the exhaustive solver; reading solved stores.
    (
        "qbf",
        &[
            "error", "diagram", "hash", "progress", "table", "kernel", "space", "search",
            "backend", "games",
        ],
    ),
    (
        "database",
        &[
            "error", "diagram", "hash", "progress", "table", "kernel", "space", "search",
            "backend", "games", "qbf",
        ],
    ),
    // Whole requests on the engines: what every shell (the command line,
    // the explorer's server, the Python package) calls.
    (
        "jobs",
        &[
            "error", "diagram", "hash", "progress", "table", "kernel", "space", "search",
            "backend", "games", "qbf", "database",
        ],
    ),
];

/// Items `lib.rs` re-exports at the crate root (`crate::Result`), and the
/// module each comes from.
const ROOT_REEXPORTS: &[(&str, &str)] = &[("Error", "error"), ("Result", "error")];

/// Files that are not part of a top-level module: the crate root.
const ROOT_FILES: &[&str] = &["lib.rs"];

#[test]
fn imports_only_point_down() {
    let allowed: BTreeMap<&str, &[&str]> = MAY_IMPORT.iter().copied().collect();
    let src = Path::new(crate::common::ROOT).join("src");
    let mut unlisted = BTreeSet::new();
    let mut offending = Vec::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).unwrap();
        let relative_name = relative.to_string_lossy().replace('\\', "/");
        if ROOT_FILES.contains(&relative_name.as_str()) {
            continue;
        }
        let module = top_module(relative);
        let Some(may_import) = allowed.get(module.as_str()) else {
            unlisted.insert(module);
            continue;
        };
        let text = fs::read_to_string(&file).unwrap();
        let code = without_test_items(&code_only(&text));
        let depth = module_depth(relative);
        for imported in imported_modules(&code, depth) {
            let imported = root_item_module(&imported);
            if imported != module && !may_import.contains(&imported.as_str()) {
                offending.push(format!("{relative_name} -> {imported}"));
            }
        }
    }
    assert!(
        unlisted.is_empty(),
        "top-level modules missing from MAY_IMPORT in tests/layering.rs (decide where they sit): {unlisted:?}"
    );
    assert!(
        offending.is_empty(),
        "imports that point up or sideways (file -> module it may not import; see MAY_IMPORT in tests/layering.rs):\n  {}",
        offending.join("\n  ")
    );
}

/// The table itself must describe layers: no module may reach itself
/// through what it may import, or "pointing down" would mean nothing.
#[test]
fn the_allowed_graph_has_no_cycle() {
    let allowed: BTreeMap<&str, &[&str]> = MAY_IMPORT.iter().copied().collect();
    for (module, imports) in MAY_IMPORT {
        let mut reachable: BTreeSet<&str> = BTreeSet::new();
        let mut to_visit: Vec<&str> = imports.to_vec();
        while let Some(next) = to_visit.pop() {
            assert_ne!(next, *module, "{module} may reach itself in MAY_IMPORT");
            if reachable.insert(next) {
                let further = allowed
                    .get(next)
                    .unwrap_or_else(|| panic!("{module} may import {next}, which has no entry"));
                to_visit.extend(further.iter().copied());
            }
        }
    }
}

/// The checker's own reading of Rust text, on small samples.
#[test]
fn the_reader_sees_imports_and_skips_the_rest() {
    let text = r##"
        use crate::{table::x, space::{Block, Space}, error};
        use crate::Result;
        // use crate::cli::nothing;
        /* crate::backend /* nested */ crate::cli */
        let s = "crate::games \" crate::cli"; let c = '"'; let q = '\''; let l: &'static str = r#"crate::qbf"#;
        fn f<'a>(x: &'a u8) { super::super::search::go(); }
        #[cfg(test)]
        mod tests { use crate::cli::Everything; fn g() { if true {} } }
        #[cfg(test)]
        use crate::games::Helper;
        fn after() { crate::kernel::Program::new(); }
    "##;
    let code = without_test_items(&code_only(text));
    let found = imported_modules(&code, 2)
        .into_iter()
        .map(|m| root_item_module(&m))
        .collect::<BTreeSet<_>>();
    let expected = ["error", "kernel", "search", "space", "table"];
    assert_eq!(found, expected.iter().map(|m| m.to_string()).collect());
    // One `super::` from a module's own file stays inside the module.
    assert!(imported_modules("use super::table::Thing;", 2).is_empty());
}

/// Circles between sibling modules known and being broken elsewhere, as
/// (folder, the modules of the circle); each is removed when its fix
/// lands, and the test fails while one is listed that is gone. (The first
/// the check found, `games/ksolve`'s coordinates <-> split, was broken
/// before it was merged.)
const KNOWN_CIRCLES: &[(&str, &[&str])] = &[];

/// No circle of imports among the modules of one folder: every module's
/// imports of its siblings (its own and its files', when it is a folder)
/// point one way.
#[test]
fn siblings_import_no_circle() {
    let src = Path::new(crate::common::ROOT).join("src");
    let files = rust_files(&src);
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .map(|file| module_path(file.strip_prefix(&src).unwrap()))
        .collect();
    // (folder, from, to) -> the first file and path that shows the edge.
    let mut edges: BTreeMap<(Vec<String>, String, String), String> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let own = module_path(relative);
        let code = without_test_items(&code_only(&fs::read_to_string(file).unwrap()));
        for path in named_paths(&code, &own) {
            let Some(reached) = reached_module(&path, &modules) else {
                continue;
            };
            if let Some((folder, from, to)) = sibling_edge(&own, reached) {
                let shown = format!("{} names {}", relative.display(), path.join("::"));
                edges.entry((folder, from, to)).or_insert(shown);
            }
        }
    }
    let mut found = Vec::new();
    let folders: BTreeSet<&Vec<String>> = edges.keys().map(|(folder, _, _)| folder).collect();
    for folder in folders {
        let mut uses: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (_, from, to) in edges.keys().filter(|(f, _, _)| f == folder) {
            uses.entry(from.as_str()).or_default().push(to.as_str());
        }
        for circle in circles_in(&uses) {
            let steps: Vec<String> = edges
                .iter()
                .filter(|((f, from, to), _)| {
                    f == folder && circle.contains(&from.as_str()) && circle.contains(&to.as_str())
                })
                .map(|((_, from, to), shown)| format!("{from} -> {to} ({shown})"))
                .collect();
            found.push((folder.join("/"), circle.join(" "), steps.join("; ")));
        }
    }
    let is_known = |folder: &str, circle: &str| {
        KNOWN_CIRCLES.iter().any(|(f, members)| {
            let mut members = members.to_vec();
            members.sort_unstable();
            *f == folder && members.join(" ") == circle
        })
    };
    let circles: Vec<String> = found
        .iter()
        .filter(|(folder, circle, _)| !is_known(folder, circle))
        .map(|(folder, _, steps)| format!("src/{folder}: {steps}"))
        .collect();
    let stale: Vec<&str> = KNOWN_CIRCLES
        .iter()
        .filter(|(folder, members)| {
            let mut members = members.to_vec();
            members.sort_unstable();
            let members = members.join(" ");
            !found
                .iter()
                .any(|(f, circle, _)| f == folder && *circle == members)
        })
        .map(|(folder, _)| *folder)
        .collect();
    assert!(
        circles.is_empty(),
        "modules of one folder that import each other round a circle (move the piece they share where both can use it):\n  {}",
        circles.join("\n  ")
    );
    assert!(
        stale.is_empty(),
        "circles in KNOWN_CIRCLES that are gone (remove them): {stale:?}"
    );
}

/// The circle reader on small samples: paths resolved from a file's module,
/// and the edges between siblings they make.
#[test]
fn the_circle_reader_resolves_paths_to_sibling_modules() {
    let own: Vec<String> = ["search", "retro2", "judge", "check"]
        .map(String::from)
        .to_vec();
    let code = "use super::layer::{Judged, LayerJudge};\n\
                use super::super::seam::Below;\n\
                use crate::space::{tally::Tally, Value};\n\
                use self::inner::Thing;\n\
                fn f() { crate::table::OneBitTable::new(); super::marks::Marks::new(0); }";
    let paths: BTreeSet<String> = named_paths(code, &own)
        .into_iter()
        .map(|path| path.join("::"))
        .collect();
    let expected = [
        "search::retro2::judge::check::inner::Thing",
        "search::retro2::judge::layer::Judged",
        "search::retro2::judge::layer::LayerJudge",
        "search::retro2::judge::marks::Marks::new",
        "search::retro2::seam::Below",
        "space::Value",
        "space::tally::Tally",
        "table::OneBitTable::new",
    ];
    assert_eq!(paths, expected.iter().map(|p| p.to_string()).collect());
    let modules: BTreeSet<Vec<String>> = [
        "search",
        "search/retro2",
        "search/retro2/seam",
        "search/retro2/judge",
        "search/retro2/judge/check",
        "search/retro2/judge/layer",
        "space",
        "space/tally",
    ]
    .iter()
    .map(|m| m.split('/').map(String::from).collect())
    .collect();
    let edge = |path: &str| {
        let path: Vec<String> = path.split("::").map(String::from).collect();
        let reached = reached_module(&path, &modules)?;
        sibling_edge(&own, reached)
            .map(|(folder, from, to)| format!("{}: {from} -> {to}", folder.join("/")))
    };
    assert_eq!(
        edge("search::retro2::judge::layer::Judged").as_deref(),
        Some("search/retro2/judge: check -> layer")
    );
    assert_eq!(
        edge("search::retro2::seam::Below").as_deref(),
        Some("search/retro2: judge -> seam")
    );
    assert_eq!(
        edge("space::tally::Tally").as_deref(),
        Some(": search -> space")
    );
    // The folder's own re-exports and the file's children are no siblings.
    assert_eq!(edge("search::retro2::judge::Marks"), None);
    assert_eq!(edge("search::retro2::judge::check::inner::Thing"), None);
    // A circle of three, and one of two beside a module outside it.
    let uses: BTreeMap<&str, Vec<&str>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a", "d"]),
        ("d", vec!["e"]),
        ("e", vec!["d"]),
    ]
    .into_iter()
    .collect();
    assert_eq!(circles_in(&uses), [vec!["a", "b", "c"], vec!["d", "e"]]);
}

/// `search/retro2/judge/check.rs` -> [search, retro2, judge, check];
/// `table/mod.rs` -> [table]; `lib.rs` -> [].
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    let is_root = parts.is_empty() && stem == "lib";
    if stem != "mod" && !is_root {
        parts.push(stem.to_string());
    }
    parts
}

/// Every path that starts with `crate::`, `super::` or `self::` in `code`,
/// from the crate root, for a file of module `own`; a `{…}` group gives a
/// path for each item.
fn named_paths(code: &str, own: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for keyword in ["crate::", "super::", "self::"] {
        for (start, _) in code.match_indices(keyword) {
            let before = code[..start].trim_end();
            if code[..start].chars().next_back().is_some_and(is_word) || before.ends_with("::") {
                continue;
            }
            for path in path_tree(&code[start..]) {
                let mut resolved: Vec<String> = Vec::new();
                let mut segments = path.into_iter().peekable();
                match segments.peek().map(String::as_str) {
                    Some("crate") => {
                        segments.next();
                    }
                    Some("self") => {
                        segments.next();
                        resolved = own.to_vec();
                    }
                    _ => {
                        resolved = own.to_vec();
                        while segments.peek().map(String::as_str) == Some("super") {
                            segments.next();
                            resolved.pop();
                        }
                    }
                }
                resolved.extend(segments.filter(|segment| segment != "self"));
                paths.push(resolved);
            }
        }
    }
    paths
}

/// The paths at the start of `text`: `a::b::c`, or `a::{b, c::{d, e}}` as
/// each of its items.
fn path_tree(text: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = text.trim_start();
    loop {
        let Some(name) = first_name(rest) else {
            return if prefix.is_empty() {
                Vec::new()
            } else {
                vec![prefix]
            };
        };
        rest = rest[name.len()..].trim_start();
        prefix.push(name);
        let Some(after) = rest.strip_prefix("::") else {
            return vec![prefix];
        };
        rest = after.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut paths = Vec::new();
            let mut depth = 0usize;
            let mut item_start = 0;
            for (at, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        items_of(&group[item_start..at], &prefix, &mut paths);
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items_of(&group[item_start..at], &prefix, &mut paths);
                        item_start = at + 1;
                    }
                    _ => {}
                }
            }
            return paths;
        }
    }
}

/// The paths of one item of a `{…}` group, after `prefix`.
fn items_of(item: &str, prefix: &[String], paths: &mut Vec<Vec<String>>) {
    for tail in path_tree(item) {
        let mut path = prefix.to_vec();
        path.extend(tail);
        paths.push(path);
    }
}

/// The deepest module of `modules` that `path` lies in.
fn reached_module<'m>(path: &[String], modules: &'m BTreeSet<Vec<String>>) -> Option<&'m [String]> {
    (1..=path.len())
        .rev()
        .find_map(|length| modules.get(&path[..length]))
        .map(Vec::as_slice)
}

/// When a file of module `own` reaches module `reached` in another branch
/// of a folder: the folder, and the two modules of that folder the edge
/// runs between (each the sibling that is, or holds, its end).
fn sibling_edge(own: &[String], reached: &[String]) -> Option<(Vec<String>, String, String)> {
    let shared = own.iter().zip(reached).take_while(|(a, b)| a == b).count();
    (shared < own.len() && shared < reached.len()).then(|| {
        (
            own[..shared].to_vec(),
            own[shared].clone(),
            reached[shared].clone(),
        )
    })
}

/// The circles of `uses` (module -> the modules it uses): the modules of
/// each strongly connected part larger than one, sorted, in the order of
/// their first module (Tarjan's algorithm).
fn circles_in<'a>(uses: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<Vec<&'a str>> {
    struct Search<'u, 'a> {
        uses: &'u BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        circles: Vec<Vec<&'a str>>,
    }
    impl<'a> Search<'_, 'a> {
        fn visit(&mut self, module: &'a str) {
            let index = self.index.len();
            self.index.insert(module, index);
            self.low.insert(module, index);
            self.stack.push(module);
            for &next in self.uses.get(module).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[module].min(self.low[next]);
                    self.low.insert(module, low);
                } else if self.stack.contains(&next) {
                    let low = self.low[module].min(self.index[next]);
                    self.low.insert(module, low);
                }
            }
            if self.low[module] == index {
                let at = self.stack.iter().position(|&m| m == module).unwrap();
                let mut part = self.stack.split_off(at);
                if part.len() > 1 {
                    part.sort_unstable();
                    self.circles.push(part);
                }
            }
        }
    }
    let mut search = Search {
        uses,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        circles: Vec::new(),
    };
    for &module in uses.keys() {
        if !search.index.contains_key(module) {
            search.visit(module);
        }
    }
    search.circles.sort();
    search.circles
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// `table/one_bit.rs` and `table/mod.rs` -> `table`; `space.rs` -> `space`.
fn top_module(relative: &Path) -> String {
    let first = relative.components().next().unwrap();
    let first = first.as_os_str().to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_string()
}

/// How deep the file's module sits below the crate root: `space.rs` and
/// `table/mod.rs` are 1, `table/one_bit.rs` is 2. A `super::` chain as long
/// as this climbs to the crate root.
fn module_depth(relative: &Path) -> usize {
    let parts = relative.components().count();
    let is_mod_file = relative.file_name().is_some_and(|name| name == "mod.rs");
    if is_mod_file { parts - 1 } else { parts }
}

/// `crate::Result` names the module `Result` comes from.
fn root_item_module(name: &str) -> String {
    ROOT_REEXPORTS
        .iter()
        .find(|(item, _)| *item == name)
        .map_or(name, |(_, module)| module)
        .to_string()
}

/// The text with comments, string literals and character literals blanked
/// out (kept as spaces, so a path split by one is not joined by mistake).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        if rest.starts_with(&['/', '/']) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if rest.starts_with(&['/', '*']) {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i..].starts_with(&['/', '*']) {
                    depth += 1;
                    i += 2;
                } else if chars[i..].starts_with(&['*', '/']) {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            code.push(' ');
        } else if let Some(end) = raw_string_end(&chars, i) {
            i = end;
            code.push(' ');
        } else if chars[i] == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            code.push(' ');
        } else if chars[i] == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), or a lifetime
            // ('a), which is kept.
            if rest.get(1) == Some(&'\\') {
                // Past the quote, the backslash and the escaped character.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                code.push(' ');
            } else if rest.get(2) == Some(&'\'') {
                i += 3;
                code.push(' ');
            } else {
                code.push('\'');
                i += 1;
            }
        } else {
            code.push(chars[i]);
            i += 1;
        }
    }
    code
}

/// Where the raw string literal (`r"…"`, `r#"…"#`, `br"…"`) starting at
/// `start` ends, if one starts there.
fn raw_string_end(chars: &[char], start: usize) -> Option<usize> {
    let previous_is_word = start > 0 && is_word(chars[start - 1]);
    if previous_is_word {
        return None;
    }
    let mut i = start;
    if chars.get(i) == Some(&'b') {
        i += 1;
    }
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    i += hashes;
    if chars.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(chars.len())
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The code without the items marked `#[cfg(test)]` (a test module, a test
/// helper, a `use` only tests need): an item ends at its `;` or at the
/// brace that closes its body.
fn without_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut kept = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        kept.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (offset, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = offset + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = offset + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    kept.push_str(rest);
    kept
}

/// The top-level modules (or root items such as `Result`) that `code`
/// reaches: after `crate::`, including each item of a `crate::{…}` group,
/// and after a `super::` chain that climbs from a file `depth` modules deep
/// to the crate root.
fn imported_modules(code: &str, depth: usize) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut at = 0;
    while let Some(offset) = code[at..].find("crate::") {
        let start = at + offset;
        at = start + "crate::".len();
        // `$crate::` (in a macro) counts; `foocrate::` does not.
        if code[..start].chars().next_back().is_some_and(is_word) {
            continue;
        }
        found.extend(path_heads(&code[at..]));
    }
    for (start, _) in code.match_indices("super::") {
        if code[..start].chars().next_back().is_some_and(is_word) {
            continue;
        }
        if start >= "super::".len() && code[..start].ends_with("super::") {
            continue; // Inside a chain counted from its first `super::`.
        }
        let mut rest = &code[start..];
        let mut climbs = 0;
        while let Some(after) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = after.trim_start();
        }
        // Only a chain that reaches the crate root can name a top-level
        // module; a shorter one (or one inside an inline module, which this
        // reading does not count) names items of the file's own module.
        if climbs >= depth {
            let known = |head: &String| {
                MAY_IMPORT.iter().any(|(module, _)| module == head)
                    || ROOT_REEXPORTS.iter().any(|(item, _)| item == head)
            };
            found.extend(path_heads(rest).into_iter().filter(known));
        }
    }
    found
}

/// The first name of the path at the start of `text`, or each item's first
/// name when it is a `{…}` group (`self` in a group names the crate root
/// itself and is left out).
fn path_heads(text: &str) -> Vec<String> {
    let text = text.trim_start();
    let Some(group) = text.strip_prefix('{') else {
        return first_name(text).into_iter().collect();
    };
    let mut items = Vec::new();
    let mut item = String::new();
    let mut depth = 0usize;
    for c in group.chars() {
        match c {
            '}' if depth == 0 => break,
            ',' if depth == 0 => items.push(std::mem::take(&mut item)),
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => item.push(c),
        }
    }
    items.push(item);
    items
        .iter()
        .filter_map(|item| first_name(item.trim_start()))
        .filter(|name| name != "self")
        .collect()
}

fn first_name(text: &str) -> Option<String> {
    let name: String = text.chars().take_while(|&c| is_word(c)).collect();
    (!name.is_empty()).then_some(name)
}

/// The library depends on no shell, and no shell but the command line
/// (which starts the server) on another: read from each crate's manifest
/// and from its sources' paths.
#[test]
fn shells_are_siblings() {
    let root = Path::new(crate::common::ROOT);
    // (crate directory, the shell crates it may name).
    let crates: [(&str, &[&str]); 4] = [
        (".", &[]),
        ("serve", &[]),
        ("python", &[]),
        ("cli", &["bitsolve-cli", "bitsolve-serve"]),
    ];
    let shells = ["bitsolve-cli", "bitsolve-serve"];
    let mut offending = Vec::new();
    for (dir, may_use) in crates {
        let manifest = fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
        let sources: Vec<PathBuf> = rust_files(&root.join(dir).join("src"));
        for shell in shells.iter().filter(|shell| !may_use.contains(shell)) {
            let in_code = shell.replace('-', "_");
            if manifest
                .lines()
                .any(|line| line.trim_start().starts_with(&format!("{shell} =")))
            {
                offending.push(format!("{dir}/Cargo.toml depends on {shell}"));
            }
            for file in &sources {
                let code = code_only(&fs::read_to_string(file).unwrap());
                if code.contains(&format!("{in_code}::")) {
                    offending.push(format!("{} uses {in_code}", file.display()));
                }
            }
        }
        // The old home of the command line inside the library.
        for file in &sources {
            let code = code_only(&fs::read_to_string(file).unwrap());
            if code.contains("bitsolve::cli") {
                offending.push(format!("{} uses bitsolve::cli", file.display()));
            }
        }
    }
    assert!(
        offending.is_empty(),
        "a shell reaches another shell, or the library a shell:\n  {}",
        offending.join("\n  ")
    );
}
