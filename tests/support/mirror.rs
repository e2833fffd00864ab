//! The mirror as the tests serve it.

use pegboard::announce::vocabulary::Vocabulary;
use pegboard::mirror::View;
use shakmaty::Color;

/// Its page in `language`, for a blind player with White, seen from
/// Black's side.
#[allow(dead_code)]
pub fn view_in(language: &str) -> View {
    let words = Vocabulary::built_in(language)
        .expect("a built-in language")
        .expect("it parses");
    View::new(Color::White, Color::Black, &words).with_console(pegboard::console::PAGE, &words)
}

/// Its page in English.
#[allow(dead_code)]
pub fn english() -> View {
    view_in("en")
}
