//! What is written and what is spoken: a language file's `[spoken]`,
//! `[phonemes]` and `[written]` tables.
//!
//! The words of a language file are written as the Laws print them, in
//! ASCII where the Laws do ("Koenig", "Laeufer"); that is what the log
//! shows. A synthesizer reads them as spelled, and some come out wrong
//! ("Ko-e-nich"). The `[spoken]` table says how such a word is to be said
//! ("König"); it is applied only on the way to a synthesizer
//! (speech-dispatcher, and the clip maker that makes the recorded clips
//! with espeak-ng). The `[written]` table says how it is written for a
//! reader ("Läufer"); it is applied to everything a page shows (the
//! mirror's and the console's words, moves and status lines).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;

/// Written word → spoken form, for whole words, matched without regard to
/// case.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(from = "BTreeMap<String, String>")]
pub struct Pronunciation {
    /// Keys in lowercase.
    words: BTreeMap<String, String>,
}

impl From<BTreeMap<String, String>> for Pronunciation {
    fn from(table: BTreeMap<String, String>) -> Pronunciation {
        Pronunciation {
            words: table
                .into_iter()
                .map(|(written, spoken)| (written.to_lowercase(), spoken))
                .collect(),
        }
    }
}

impl Pronunciation {
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The spoken form of one word, if the table has one.
    pub fn word(&self, written: &str) -> Option<&str> {
        self.words.get(&written.to_lowercase()).map(String::as_str)
    }

    /// `text` as it is to be spoken: every whole word the table names is
    /// replaced by its spoken form; everything else stays as it is.
    pub fn apply<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.words.is_empty() {
            return Cow::Borrowed(text);
        }
        replace_words(text, |word| self.word(word).map(Cow::Borrowed))
    }
}

/// `[written]`: how a word the language file spells as the Laws print it,
/// in ASCII ("Laeufer"), is written on a page ("Läufer"). A word is
/// matched exactly as the table writes it, case and all.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(from = "BTreeMap<String, String>")]
pub struct Written {
    words: BTreeMap<String, String>,
}

impl From<BTreeMap<String, String>> for Written {
    fn from(words: BTreeMap<String, String>) -> Written {
        Written { words }
    }
}

impl Written {
    /// `json` (a page's words, an event or state line) with every whole
    /// word the table names written as a reader reads it, each written as
    /// JSON writes a string's characters.
    pub fn apply_to_json<'a>(&self, json: &'a str) -> Cow<'a, str> {
        if self.words.is_empty() {
            return Cow::Borrowed(json);
        }
        replace_words(json, |word| {
            self.words.get(word).map(|w| {
                let quoted = serde_json::to_string(w).unwrap_or_default();
                Cow::Owned(quoted[1..quoted.len().saturating_sub(1).max(1)].to_string())
            })
        })
    }
}

/// `text` with every whole word (a run of letters and digits) that
/// `replacement` gives another form replaced by it.
fn replace_words<'a, 'w>(
    text: &'a str,
    replacement: impl Fn(&str) -> Option<Cow<'w, str>>,
) -> Cow<'a, str> {
    let mut out = String::with_capacity(text.len() + 8);
    let mut changed = false;
    let mut rest = text;
    while !rest.is_empty() {
        let word_len = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        if word_len == 0 {
            let c = rest.chars().next().map_or(1, char::len_utf8);
            out.push_str(&rest[..c]);
            rest = &rest[c..];
            continue;
        }
        let (word, tail) = rest.split_at(word_len);
        match replacement(word) {
            Some(other) => {
                out.push_str(&other);
                changed = true;
            }
            None => out.push_str(word),
        }
        rest = tail;
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(pairs: &[(&str, &str)]) -> Pronunciation {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<BTreeMap<_, _>>()
            .into()
    }

    #[test]
    fn whole_words_are_replaced_whatever_their_case() {
        let p = table(&[("Koenig", "König"), ("Rochade", "Roschade")]);
        assert_eq!(p.apply("Koenig Gustav eins"), "König Gustav eins");
        assert_eq!(p.apply("Kurze Rochade, Schach."), "Kurze Roschade, Schach.");
        assert_eq!(p.apply("koenig"), "König");
        // Part of a longer word is not a word.
        assert_eq!(p.apply("Koenigin Rochaden"), "Koenigin Rochaden");
        assert!(matches!(p.apply("Dame Eva fünf"), Cow::Borrowed(_)));
        assert_eq!(p.apply(""), "");
    }

    #[test]
    fn written_forms_match_exactly_and_stay_valid_json() {
        let w: Written = [("Laeufer", "Läufer"), ("Turm", "a \"quoted\" tower")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<BTreeMap<_, _>>()
            .into();
        let json = r#"{"say":"Laeufer Cesar vier, laeufer, Turm","name":"LAEUFER"}"#;
        let out = w.apply_to_json(json);
        assert_eq!(
            out,
            r#"{"say":"Läufer Cesar vier, laeufer, a \"quoted\" tower","name":"LAEUFER"}"#
        );
        let back: serde_json::Value = serde_json::from_str(&out).expect("still JSON");
        assert_eq!(
            back["say"],
            "Läufer Cesar vier, laeufer, a \"quoted\" tower"
        );
    }
}
