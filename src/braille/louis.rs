//! Text in the reader's Braille, through liblouis (Debian's `liblouis20`):
//! the translation tables of every Braille code it knows, grade 1 and 2
//! English (Unified English Braille), German's own code, and the rest.
//!
//! A small binding of our own, of three functions: the `liblouis` crate
//! cuts a translation longer than four cells a character short without
//! saying so, and an unknown character's escape is longer than that.

use std::ffi::{CString, c_char, c_int};
use std::fmt;
use std::sync::Mutex;

use super::cell::Cell;

#[link(name = "louis")]
unsafe extern "C" {
    fn lou_registerLogCallback(callback: Option<extern "C" fn(c_int, *const c_char)>);
    fn lou_charSize() -> c_int;
    fn lou_getTable(table_list: *const c_char) -> *const std::ffi::c_void;
    fn lou_translateString(
        table_list: *const c_char,
        inbuf: *const u32,
        inlen: *mut c_int,
        outbuf: *mut u32,
        outlen: *mut c_int,
        typeform: *mut u16,
        spacing: *mut c_char,
        mode: c_int,
    ) -> c_int;
}

/// liblouis compiles its tables into shared state on first use: one
/// caller at a time.
static LIBLOUIS: Mutex<()> = Mutex::new(());

/// liblouis's own messages ("Cannot resolve table …") would go to standard
/// error; pegboard says what went wrong itself.
extern "C" fn quiet(_level: c_int, _message: *const c_char) {}

/// Why a text could not be put into Braille.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LouisError {
    /// liblouis was built with 16-bit characters (pegboard passes 32-bit).
    CharSize(i32),
    /// No such table, or it does not compile.
    Table(String),
    /// liblouis refused the text.
    Failed(String),
    /// pegboard knows no Braille table for this language (its code).
    NoTable(String),
}

impl fmt::Display for LouisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LouisError::CharSize(n) => write!(
                f,
                "this liblouis was built with {}-bit characters; pegboard needs one built with 32-bit characters (Debian's liblouis20 is)",
                n * 8
            ),
            LouisError::Table(t) => write!(
                f,
                "liblouis has no Braille table \"{t}\" (the tables are in /usr/share/liblouis/tables, from the liblouis-data package)"
            ),
            LouisError::Failed(text) => write!(
                f,
                "liblouis could not translate \"{}\"",
                crate::text::quote::short(text)
            ),
            LouisError::NoTable(language) => write!(
                f,
                "there is no Braille table for the language \"{language}\": name one in [braille] table"
            ),
        }
    }
}

impl std::error::Error for LouisError {}

/// A liblouis table list, checked: the table and the display table that
/// makes liblouis write Unicode Braille.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    list: CString,
    name: String,
}

impl Table {
    /// The table named `name` (a file in liblouis's tables, e.g.
    /// `en-ueb-g2.ctb`), if liblouis has it and it compiles.
    pub fn open(name: &str) -> Result<Table, LouisError> {
        let list = CString::new(format!("unicode.dis,{name}"))
            .map_err(|_| LouisError::Table(name.to_string()))?;
        let _one = LIBLOUIS.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: `quiet` is a plain function that lives as long as the
        // program and reads neither argument.
        unsafe { lou_registerLogCallback(Some(quiet)) };
        // SAFETY: lou_charSize takes nothing and returns a constant.
        let size = unsafe { lou_charSize() };
        if size != 4 {
            return Err(LouisError::CharSize(size));
        }
        // SAFETY: `list` is a NUL-terminated string that outlives the call;
        // liblouis only reads it, and returns a pointer into its own cache
        // (NULL when the table cannot be found or compiled), which we only
        // compare with NULL.
        let compiled = unsafe { lou_getTable(list.as_ptr()) };
        if compiled.is_null() {
            return Err(LouisError::Table(name.to_string()));
        }
        Ok(Table {
            list,
            name: name.to_string(),
        })
    }

    /// The table's file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `text` in this table's Braille. A control character is a space
    /// (liblouis stops at a NUL). A character the table has no sign for
    /// comes out as liblouis writes it, its code in hexadecimal
    /// (`'\x041d'`), whose backslash is a cell with dot 7: on a six-dot
    /// page it is the backslash's six dots.
    pub fn translate(&self, text: &str) -> Result<Vec<Cell>, LouisError> {
        let input = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .map(u32::from)
            .collect();
        let out = self.call(input)?;
        Ok(out
            .into_iter()
            .map(|c| {
                char::from_u32(c)
                    .and_then(Cell::from_unicode_six)
                    .unwrap_or(Cell::BLANK)
            })
            .collect())
    }

    fn call(&self, input: Vec<u32>) -> Result<Vec<u32>, LouisError> {
        let failed =
            || LouisError::Failed(input.iter().filter_map(|&c| char::from_u32(c)).collect());
        let whole = c_int::try_from(input.len()).map_err(|_| failed())?;
        if whole == 0 {
            return Ok(Vec::new());
        }
        let _one = LIBLOUIS.lock().unwrap_or_else(|e| e.into_inner());
        // Room for every character's longest escape; more if liblouis
        // stops short of the end for want of room.
        let mut room = input.len() * 8 + 16;
        loop {
            let mut output = vec![0u32; room];
            let mut inlen = whole;
            let mut outlen = c_int::try_from(room).map_err(|_| failed())?;
            // SAFETY: the table list is NUL-terminated; `input` holds
            // `inlen` 32-bit characters (liblouis's widechar, checked to be
            // 4 bytes when the table was opened) and `output` has room for
            // `outlen`; liblouis writes at most `outlen` characters and
            // sets both lengths to what it read and wrote. No typeform or
            // spacing buffers are passed (NULL is allowed for both).
            let ok = unsafe {
                lou_translateString(
                    self.list.as_ptr(),
                    input.as_ptr(),
                    &mut inlen,
                    output.as_mut_ptr(),
                    &mut outlen,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    0,
                )
            };
            if ok == 0 {
                return Err(failed());
            }
            let written = usize::try_from(outlen).map_err(|_| failed())?;
            if inlen >= whole {
                output.truncate(written.min(room));
                return Ok(output);
            }
            if room > input.len() * 64 {
                return Err(failed());
            }
            room *= 2;
        }
    }
}

/// The liblouis table for a language's text (its synthesizer code: "en",
/// "de" …), grade 1 (uncontracted) or grade 2 (contracted). English is
/// Unified English Braille; German, Portuguese, Spanish and Catalan their
/// own codes.
pub fn table_for(language: &str, grade: u8) -> Option<&'static str> {
    let two = usize::from(grade == 2);
    Some(match language {
        "en" => ["en-ueb-g1.ctb", "en-ueb-g2.ctb"][two],
        "de" => ["de-g1.ctb", "de-g2.ctb"][two],
        "pt" => ["pt-pt-g1.utb", "pt-pt-g2.ctb"][two],
        "es" => ["es-g1.ctb", "es-g2.ctb"][two],
        // Catalan has one grade in liblouis.
        "ca" => "ca-g1.ctb",
        _ => return None,
    })
}

/// The liblouis table for a language's moves: uncontracted, with capitals
/// marked, so that a bishop's capture (`Bxc3`) is not read as the b-pawn's
/// (`bxc3`), and a letter after a digit marked as one (`R1a3` is not
/// `R113`). German Braille marks capitals in its detailed basic table. The
/// moves are standard algebraic notation, whose letters are English; the
/// Portuguese, Spanish and Catalan tables mark no letter after a digit, so
/// those languages' moves are in Unified English Braille.
pub fn moves_table_for(language: &str) -> Option<&'static str> {
    Some(match language {
        "de" => "de-g0-detailed.utb",
        "en" | "pt" | "es" | "ca" => "en-ueb-g1.ctb",
        _ => return None,
    })
}
