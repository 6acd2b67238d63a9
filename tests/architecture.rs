//! The layering ARCHITECTURE.md describes, checked: the core (everything under src/ but the
//! edges) imports no edge, no JavaScript binding and no I/O; the page's JavaScript reaches the
//! core only through the wasm package.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::path::{Path, PathBuf};

/// The edges: the command line (with its entry point) and the wasm bindings.
const EDGES: [&str; 3] = ["src/cli", "src/wasm", "src/main.rs"];

/// What no core file may mention: the edges, JavaScript bindings, the terminal, files, processes.
const FORBIDDEN_IN_CORE: [&str; 11] = [
    "crate::wasm",
    "crate::cli",
    "wasm_bindgen",
    "web_sys",
    "js_sys",
    "clap::",
    "std::fs",
    "std::process",
    "std::io",
    "println!",
    "eprintln!",
];

fn files(dir: &Path, extension: &str, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, extension, found);
        } else if path.extension().is_some_and(|e| e == extension) {
            found.push(path);
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_core_imports_no_edge_no_javascript_binding_and_no_io() {
    let root = root();
    let mut sources = Vec::new();
    files(&root.join("src"), "rs", &mut sources);
    assert!(sources.len() > 20, "found {} sources", sources.len());
    let mut broken = Vec::new();
    for path in sources {
        let relative = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if EDGES.iter().any(|edge| relative.starts_with(edge)) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        // Tests inside core files may read files and print; what ships may not. A file that is
        // test code as a whole (`#![cfg(test)]`, like the generator of the TypeScript types)
        // ships nothing.
        let shipped = if text.contains("\n#![cfg(all(test, not(target_arch = \"wasm32\")))]\n") {
            ""
        } else {
            text.split("#[cfg(test)]").next().unwrap_or("")
        };
        for word in FORBIDDEN_IN_CORE {
            if shipped.contains(word) {
                broken.push(format!("{relative} mentions {word}"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "the core reaches an edge:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_page_reaches_the_core_only_through_the_wasm_package() {
    let mut scripts = Vec::new();
    files(&root().join("www"), "js", &mut scripts);
    let mut broken = Vec::new();
    for path in scripts {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.components().any(|c| c.as_os_str() == "pkg") || name.ends_with(".bundle.js") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| l.contains(" from '")) {
            let target = line
                .split(" from '")
                .nth(1)
                .unwrap_or("")
                .trim_end_matches("';");
            let sibling = target
                .strip_prefix("./")
                .is_some_and(|rest| !rest.contains('/'));
            // (worker.classic.txt: worker.js bundled as text by scripts/build-page.sh, which
            // reaches the core through the same package.)
            let allowed = target == "./pkg/backoff_lab.js"
                || target == "./pkg/backoff_lab_bg.wasm"
                || target == "./pkg/worker.classic.txt"
                || (sibling && target.ends_with(".js"));
            if !allowed {
                broken.push(format!("{name} imports {target}"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
