//! Why a line the typed reading refused is wrong, said in terms of the
//! line rather than of the parser. Run only for a line that failed, so it
//! costs nothing on good lines.

use super::reading::MAX_T_MS;

/// What each field of a trace line holds, for errors about a value of the
/// wrong kind.
const FIELD_KINDS: &[(&str, &str)] = &[
    ("t", "a whole number of milliseconds, like 1500"),
    ("trace", "the format number 1"),
    ("start", "\"startpos\" or a FEN, in quotes"),
    ("variant", "\"standard\" or \"chess960\""),
    ("board", "a board's name in quotes, like \"blind\""),
    ("occ", "16 lowercase hexadecimal digits in quotes"),
    (
        "keys",
        "the keys held, as a whole number of bits from 0 to 65535, like 8 for the fourth key",
    ),
    ("lift", "a square in quotes, like \"e2\""),
    ("place", "a square in quotes, like \"e4\""),
    ("input", "an input's name in quotes, like \"clock\""),
    ("piece", "q, r, b or n in quotes"),
    ("color", "\"white\" or \"black\""),
    ("square", "a square in quotes, like \"e4\""),
    ("count", "a whole number, 1 or more"),
    ("rank", "a number from 1 to 8"),
    ("file", "a file from \"a\" to \"h\""),
    ("ply", "a whole number, 1 or more"),
    (
        "time_control",
        "a PGN TimeControl in quotes, like \"5400+30\"",
    ),
    ("white_ms", "a whole number of milliseconds"),
    ("black_ms", "a whole number of milliseconds"),
    ("white_moves", "a whole number of moves"),
    ("black_moves", "a whole number of moves"),
    ("clocks", "\"held\" or \"running\""),
    ("uci", "a move in UCI in quotes, like \"g8f6\""),
    ("san", "a move in SAN in quotes, like \"Nf6\""),
    ("fen", "a FEN in quotes"),
    ("chess960", "a Chess960 start number, 0 to 959"),
    (
        "tags",
        "an object of PGN tags and their texts, like {\"White\":\"Anna\"}",
    ),
    ("white_moves_on", "a board's name or \"relay\", in quotes"),
    ("black_moves_on", "a board's name or \"relay\", in quotes"),
    ("laws", "\"2023\" or \"2008\", in quotes"),
    ("after", "a FEN or \"startpos\", in quotes"),
];

/// A JSON value, named for an error message, quoting at most a short
/// prefix of a long string.
fn describe(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "null".into(),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => format!("\"{}\"", crate::text::quote::short(s)),
        serde_json::Value::Array(_) => "a list".into(),
        serde_json::Value::Object(_) => "an object".into(),
    }
}

/// Says what is wrong with a line the typed reading refused, in terms of
/// the line rather than of the parser: it is not JSON, not an object, or
/// which field holds what kind of value instead of what it should.
/// Run only for a line that failed, so it costs nothing on good lines.
pub(super) fn explain(text: &str, parser: String) -> String {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let what = if text.contains('\0') {
                "holds NUL bytes".to_string()
            } else if e.to_string().contains("surrogate") || e.to_string().contains("hex escape") {
                "has a \\u escape that is half of a UTF-16 pair (a lone surrogate)".to_string()
            } else if e.is_eof() {
                "is cut short".to_string()
            } else {
                format!("is not valid JSON ({parser})")
            };
            return format!(
                "the line {what}; a trace line is one JSON object, like {{\"t\":900,\"lift\":\"g1\"}}"
            );
        }
    };
    let Some(object) = value.as_object() else {
        return format!(
            "the line is {}, not a JSON object like {{\"t\":900,\"lift\":\"g1\"}}",
            describe(&value)
        );
    };
    for (field, value) in object {
        if let Some((_, kind)) = FIELD_KINDS.iter().find(|(f, _)| f == field) {
            let fits = match field.as_str() {
                "t" => value.as_u64().is_some_and(|t| t <= MAX_T_MS),
                "trace" | "white_ms" | "black_ms" => value.is_u64(),
                "count" | "rank" | "ply" | "white_moves" | "black_moves" => {
                    value.as_u64().is_some_and(|n| u32::try_from(n).is_ok())
                }
                "tags" => value
                    .as_object()
                    .is_some_and(|o| o.values().all(|v| v.is_string())),
                _ => value.is_string(),
            };
            if !fits {
                return format!("`{field}` must be {kind}, not {}", describe(value));
            }
        }
    }
    parser
}
