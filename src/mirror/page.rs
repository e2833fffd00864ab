//! The page, in the configured language: `page.html` with the language
//! file's words put inside it as JSON, made once when the mirror starts.

use serde::Serialize;
use shakmaty::Color;

use crate::announce::spoken::Written;
use crate::announce::vocabulary::{ConsoleWords, DisplayWords, Vocabulary};

/// The page, whole: no fonts, scripts or styles from elsewhere.
const PAGE: &str = include_str!("page.html");

/// The parts the mirror's page and the console's share (the board, the
/// clocks, the theme, the event stream), put into both where they say
/// `/*view.css*/` and `/*view.js*/`.
pub const VIEW_CSS: &str = include_str!("view.css");
pub const VIEW_JS: &str = concat!(
    include_str!("page.js"),
    include_str!("board.js"),
    include_str!("view.js")
);

/// What every page shares (its words, the theme, the stream's link), the
/// board's drawing and the clock's time, which the hall view shares.
pub const SHARED_JS: &str = concat!(include_str!("page.js"), include_str!("board.js"));

/// Where the words go in the page.
const WORDS_AT: &str = "{\"words\":\"here\"}";

/// Who the mirror is for and how it speaks to him.
#[derive(Debug, Clone)]
pub struct View {
    /// The blind player's colour: his moves are the ones to repeat.
    pub blind: Color,
    /// The side the board is seen from.
    pub orientation: Color,
    /// The page, with its words.
    pub page: String,
    /// The console's page, with its words (served only with a console):
    /// see [`View::with_console`].
    pub console_page: String,
    /// How the language file's ASCII spellings are written on a page
    /// (`[written]`): applied to the moves and status lines shown.
    pub written: Written,
}

impl View {
    /// The mirror for a blind player of colour `blind`, its board seen from
    /// `orientation`'s side, its page in `words`' language.
    pub fn new(blind: Color, orientation: Color, words: &Vocabulary) -> View {
        View {
            blind,
            orientation,
            page: page(words),
            console_page: String::new(),
            written: words.written.clone(),
        }
    }
}

impl View {
    /// This view with the console's page: `template` (the console's own
    /// page, which the runtime hands over) with the shared parts and
    /// `words`, the console's among them.
    pub fn with_console(mut self, template: &str, words: &Vocabulary) -> View {
        self.console_page = assemble(template, words, true);
        self
    }
}

/// The words the page's script reads.
#[derive(Serialize)]
struct PageWords<'a> {
    display: &'a DisplayWords,
    /// The console's own words (only in the console's page).
    #[serde(skip_serializing_if = "Option::is_none")]
    console: Option<&'a ConsoleWords>,

    /// By FEN letter: `k`, `q`, `r`, `b`, `n`, `p`.
    pieces: [(char, &'a str); 6],
    white: &'a str,
    black: &'a str,
    /// The status line when a piece is touched: `{piece} {square}`.
    touch: &'a str,
}

/// The page in `words`' language.
pub fn page(words: &Vocabulary) -> String {
    assemble(PAGE, words, false)
}

/// `template` (a page with the shared parts' and the words' places) in
/// `words`' language; with the console's words when `console`.
pub fn assemble(template: &str, words: &Vocabulary, console: bool) -> String {
    let p = &words.pieces;
    let table = PageWords {
        display: &words.display,
        console: console.then_some(&words.console),
        pieces: [
            ('k', &p.king),
            ('q', &p.queen),
            ('r', &p.rook),
            ('b', &p.bishop),
            ('n', &p.knight),
            ('p', &p.pawn),
        ],
        white: &words.colors.white,
        black: &words.colors.black,
        touch: &words.phrases.touch,
    };
    // Words are plain strings; they always serialize. Every "<" is written
    // "\u003c" (the same string to JSON), so no word can end the script
    // or look like a tag to the HTML parser.
    // Written as a reader reads them ("Läufer", not the Laws' "Laeufer").
    let json = serde_json::to_string(&table).unwrap_or_default();
    let json = words.written.apply_to_json(&json).replace('<', "\\u003c");
    let lang = escape_attribute(&words.language.synthesizer);
    template
        .replacen("<html lang=\"en\">", &format!("<html lang=\"{lang}\">"), 1)
        .replacen("/*view.css*/", VIEW_CSS, 1)
        .replacen("/*view.js*/", VIEW_JS, 1)
        .replacen(WORDS_AT, &json, 1)
}

fn escape_attribute(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_in(page: &str) -> serde_json::Value {
        let tag = "<script id=\"words\" type=\"application/json\">";
        let start = page.find(tag).expect("words") + tag.len();
        let end = start + page[start..].find("</script>").expect("end");
        serde_json::from_str(&page[start..end]).expect("json")
    }

    #[test]
    fn the_page_carries_its_language_and_words() {
        let de = Vocabulary::built_in("de").expect("de").expect("parses");
        let page = page(&de);
        assert!(page.contains("<html lang=\"de\">"));
        let w = words_in(&page);
        assert_eq!(w["display"]["moves"], "Züge");
        assert_eq!(w["pieces"][4], serde_json::json!(["n", "Springer"]));
        assert_eq!(w["white"], "Weiß");
    }

    #[test]
    fn no_word_can_end_the_script_or_the_attribute() {
        let mut v = Vocabulary::fide();
        v.display.moves = "</script><script>alert(1)</script>".into();
        v.language.synthesizer = "de\"><x".into();
        let page = page(&v);
        assert!(!page.contains("alert(1)</script>"));
        assert_eq!(
            words_in(&page)["display"]["moves"],
            "</script><script>alert(1)</script>"
        );
        assert!(page.contains("<html lang=\"dex\">"));
    }
}
