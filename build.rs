//! Builds the table of built-in languages from `src/announce/lang/*.toml`,
//! so that adding a language means adding a file.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from("src/announce/lang");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("src/announce/lang must exist")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    names.sort();
    let mut table = String::from("&[\n");
    for name in &names {
        let path =
            std::fs::canonicalize(dir.join(format!("{name}.toml"))).expect("language file path");
        writeln!(
            table,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("write to string");
    }
    table.push(']');
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR is set by cargo"));
    std::fs::write(out.join("languages.rs"), table).expect("write languages.rs");
}
