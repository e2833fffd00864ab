//! A refreshable Braille display, through BrlAPI: brltty's client library
//! (Debian's `libbrlapi0.8`), which drives every display brltty knows.
//!
//! A small binding of our own over the library's handle functions: the
//! `brlapi` crate's key reading calls the single-session function on a
//! handle it never opened, and its dots writing reads as many cells as the
//! display has from a slice that may be shorter. The library's default on
//! an error the server reports is to abort the process; here such an error
//! ends the connection instead, and the next call says so.

use std::ffi::{CString, c_char, c_int, c_uint, c_void};
use std::fmt;

use super::cell::Cell;

/// `brlapi_connectionSettings_t`.
#[repr(C)]
struct Settings {
    auth: *const c_char,
    host: *const c_char,
}

/// `brlapi_writeArguments_t`.
#[repr(C)]
struct WriteArguments {
    display_number: c_int,
    region_begin: c_uint,
    region_size: c_int,
    text: *const c_char,
    text_size: c_int,
    and_mask: *const u8,
    or_mask: *const u8,
    cursor: c_int,
    charset: *const c_char,
}

/// `brlapi_error_t`.
#[repr(C)]
struct ErrorLocation {
    brlerrno: c_int,
    libcerrno: c_int,
    gaierrno: c_int,
    errfun: *const c_char,
}

type ExceptionHandler = extern "C" fn(*mut c_void, c_int, u32, *const c_void, usize);

#[link(name = "brlapi")]
unsafe extern "C" {
    fn brlapi_getHandleSize() -> usize;
    fn brlapi__openConnection(
        handle: *mut c_void,
        desired: *const Settings,
        actual: *mut Settings,
    ) -> c_int;
    fn brlapi__closeConnection(handle: *mut c_void);
    fn brlapi__setExceptionHandler(
        handle: *mut c_void,
        handler: Option<ExceptionHandler>,
    ) -> Option<ExceptionHandler>;
    fn brlapi__getDisplaySize(handle: *mut c_void, x: *mut c_uint, y: *mut c_uint) -> c_int;
    fn brlapi__enterTtyModeWithPath(
        handle: *mut c_void,
        ttys: *const c_int,
        count: c_int,
        driver: *const c_char,
    ) -> c_int;
    fn brlapi__write(handle: *mut c_void, arguments: *const WriteArguments) -> c_int;
    fn brlapi__sync(handle: *mut c_void) -> c_int;
    fn brlapi__readKeyWithTimeout(handle: *mut c_void, timeout_ms: c_int, code: *mut u64) -> c_int;
    fn brlapi__acceptKeys(
        handle: *mut c_void,
        range_type: c_int,
        keys: *const u64,
        count: c_uint,
    ) -> c_int;
    fn brlapi__getFileDescriptor(handle: *mut c_void) -> c_int;
    fn brlapi_error_location() -> *mut ErrorLocation;
    fn brlapi_strerror_r(error: *const ErrorLocation, buf: *mut c_char, len: usize) -> usize;
}

/// The server reported an error: the library closes the connection when
/// this returns, and the call under way fails (end of file).
extern "C" fn on_exception(_: *mut c_void, _: c_int, _: u32, _: *const c_void, _: usize) {}

const BRLAPI_ERROR_LIBCERR: c_int = 11;
const BRLAPI_ERROR_EOF: c_int = 14;
const KEY_TYPE_MASK: u64 = 0xE000_0000;
const KEY_TYPE_CMD: u64 = 0x2000_0000;
const KEY_CMD_BLK_MASK: u64 = 0x1FFF_0000;
const KEY_CMD_ARG_MASK: u64 = 0xFFFF;
/// `BRLAPI_KEY_CMD_ROUTE`'s block: a routing key.
const ROUTE_BLOCK: u64 = 1;
/// `brlapi_rangeType_key`: a key with any flags.
const RANGE_KEY: c_int = 3;
/// `BRLAPI_KEY_CMD_NOOP` and `BRLAPI_KEY_CMD_OFFLINE`: what brltty sends
/// when the display comes back and when it goes away.
const CMD_NOOP: u64 = KEY_TYPE_CMD;
const CMD_OFFLINE: u64 = KEY_TYPE_CMD | 76;

/// A key pressed on the display, as brltty gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// The routing key over this cell (0 is the first).
    Route(u16),
    /// One of brltty's commands (its block and argument: `BRLAPI_KEY_CMD_*`).
    Command { block: u16, argument: u16 },
    /// A key of a keyboard (an X keysym: 0xFF0D is Return).
    Sym(u32),
}

impl Key {
    /// brltty's word that the display went away (unplugged, switched off)
    /// while brltty goes on: `BRLAPI_KEY_CMD_OFFLINE`.
    pub const OFFLINE: Key = Key::Command {
        block: 0,
        argument: 76,
    };
    /// brltty's word that the display is back: `BRLAPI_KEY_CMD_NOOP`.
    pub const ONLINE: Key = Key::Command {
        block: 0,
        argument: 0,
    };

    /// The key a BrlAPI key code stands for (its flags left aside).
    pub fn of(code: u64) -> Key {
        let code = code & 0xFFFF_FFFF;
        if code & KEY_TYPE_MASK == KEY_TYPE_CMD {
            let block = (code & KEY_CMD_BLK_MASK) >> 16;
            let argument = (code & KEY_CMD_ARG_MASK) as u16;
            if block == ROUTE_BLOCK {
                Key::Route(argument)
            } else {
                Key::Command {
                    block: block as u16,
                    argument,
                }
            }
        } else {
            Key::Sym((code & !KEY_TYPE_MASK) as u32)
        }
    }
}

/// Why the display cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrlapiError {
    /// What pegboard was doing ("connecting", "writing" …).
    pub doing: &'static str,
    /// BrlAPI's error number (`BRLAPI_ERROR_*`).
    pub code: i32,
    /// Its words.
    pub message: String,
}

impl BrlapiError {
    /// The connection is gone (brltty stopped, or the server ended it).
    pub fn is_lost(&self) -> bool {
        self.code == BRLAPI_ERROR_EOF || self.code == BRLAPI_ERROR_LIBCERR
    }

    /// The calling thread's last BrlAPI error.
    fn last(doing: &'static str) -> BrlapiError {
        // SAFETY: brlapi_error_location returns the calling thread's own
        // error record (thread-local storage of the library), valid for
        // the thread's life; it is read here and handed back to the
        // library's message function with a buffer of the length given.
        unsafe {
            let location = brlapi_error_location();
            let code = if location.is_null() {
                0
            } else {
                (*location).brlerrno
            };
            let mut buf = [0 as c_char; 256];
            let message = if location.is_null() {
                String::from("unknown error")
            } else {
                brlapi_strerror_r(location, buf.as_mut_ptr(), buf.len());
                std::ffi::CStr::from_ptr(buf.as_ptr())
                    .to_string_lossy()
                    .into_owned()
            };
            BrlapiError {
                doing,
                code,
                message,
            }
        }
    }
}

impl fmt::Display for BrlapiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the Braille display ({}): {}", self.doing, self.message)
    }
}

impl std::error::Error for BrlapiError {}

/// An open connection to brltty, holding the display.
pub struct Display {
    /// The library's handle, in memory of ours (8-byte aligned).
    handle: Vec<u64>,
    cells: usize,
}

// SAFETY: the handle is the library's per-connection state, guarded by its
// own mutexes; it holds no pointer into the thread that opened it, and the
// `Display` is used by one thread at a time (`&mut self`).
unsafe impl Send for Display {}

impl Display {
    /// Connects to brltty's BrlAPI at `host` ("localhost:0", ":1",
    /// "127.0.0.1:5"; empty: brltty's own default) with `auth` (empty:
    /// brltty's default), waits up to `wait` for the display to be known
    /// (brltty names its size once the display answers), and takes it for
    /// pegboard: its cells and its keys, and brltty's word when the display
    /// goes away and comes back ([`Key::OFFLINE`], [`Key::ONLINE`]).
    pub fn open(host: &str, auth: &str, wait: std::time::Duration) -> Result<Display, BrlapiError> {
        let mut display = Display::connect(host, auth, wait)?;
        let handle = display.raw();
        // SAFETY: an open handle; no tty list (NULL, 0: the root of
        // brltty's ttys, which needs no console) and no driver name (NULL:
        // keys come as brltty's commands).
        let taken =
            unsafe { brlapi__enterTtyModeWithPath(handle, std::ptr::null(), 0, std::ptr::null()) };
        if taken < 0 {
            return Err(BrlapiError::last("taking the display"));
        }
        // A client in tty mode is not sent these two unless it asks.
        let told = [CMD_OFFLINE, CMD_NOOP];
        // SAFETY: an open handle in tty mode; `told` holds `told.len()`
        // key codes of ours, only read.
        if unsafe { brlapi__acceptKeys(handle, RANGE_KEY, told.as_ptr(), told.len() as c_uint) } < 0
        {
            return Err(BrlapiError::last("taking the display"));
        }
        Ok(display)
    }

    /// The display's size, as brltty at `host` knows it, without taking the
    /// display (`check-config` asks it during a game).
    pub fn size(host: &str, auth: &str, wait: std::time::Duration) -> Result<usize, BrlapiError> {
        Display::connect(host, auth, wait).map(|d| d.cells)
    }

    /// Connected, and the display's size known.
    fn connect(host: &str, auth: &str, wait: std::time::Duration) -> Result<Display, BrlapiError> {
        let host = CString::new(host).unwrap_or_default();
        let auth = CString::new(auth).unwrap_or_default();
        let or_default = |s: &CString| {
            if s.as_bytes().is_empty() {
                std::ptr::null()
            } else {
                s.as_ptr()
            }
        };
        let settings = Settings {
            auth: or_default(&auth),
            host: or_default(&host),
        };
        // SAFETY: brlapi_getHandleSize takes nothing.
        let size = unsafe { brlapi_getHandleSize() };
        let mut display = Display {
            handle: vec![0u64; size.div_ceil(8)],
            cells: 0,
        };
        let handle = display.raw();
        // SAFETY: `handle` points to `size` bytes of ours, aligned for any
        // field; the settings' strings live until the call returns and are
        // only read. `actual` may be NULL.
        let fd = unsafe { brlapi__openConnection(handle, &settings, std::ptr::null_mut()) };
        if fd < 0 {
            let e = BrlapiError::last("connecting");
            // SAFETY: the library set the handle up before it failed; a
            // failure after the socket was made (brltty going away in the
            // handshake) leaves it open, and closing frees it (an unmade
            // one is closed as -1, which does nothing).
            unsafe { brlapi__closeConnection(handle) };
            display.handle.clear();
            return Err(e);
        }
        // The socket is brltty's and ours alone: a program pegboard starts
        // (the engine) must not hold it, or brltty would never see it
        // closed.
        // SAFETY: fcntl on a descriptor the library just opened, setting
        // one flag.
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        // SAFETY: an open handle; `on_exception` is a plain function that
        // lives as long as the program and reads nothing.
        unsafe { brlapi__setExceptionHandler(handle, Some(on_exception)) };
        let began = std::time::Instant::now();
        loop {
            let (mut x, mut y) = (0 as c_uint, 0 as c_uint);
            // SAFETY: an open handle; x and y are ours, written by the call.
            if unsafe { brlapi__getDisplaySize(handle, &mut x, &mut y) } < 0 {
                return Err(BrlapiError::last("asking the display's size"));
            }
            display.cells = (x as usize) * (y as usize);
            if display.cells > 0 {
                break;
            }
            if began.elapsed() >= wait {
                return Err(BrlapiError {
                    doing: "asking the display's size",
                    code: 0,
                    message: "brltty knows no display yet (is one connected?)".into(),
                });
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Ok(display)
    }

    fn raw(&mut self) -> *mut c_void {
        self.handle.as_mut_ptr().cast()
    }

    /// The connection's socket: readable when brltty sent something (a
    /// key, most often); -1 once the library closed it. Keys the library
    /// already read while it waited for an answer are not on it:
    /// [`Display::key`] with no wait gives them.
    pub fn fd(&mut self) -> std::os::fd::RawFd {
        let handle = self.raw();
        // SAFETY: an open handle; the call reads the descriptor it holds.
        unsafe { brlapi__getFileDescriptor(handle) }
    }

    /// The display's cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Shows `cells` from the display's first cell, the rest blank (cells
    /// past its end are left out), and waits for brltty to have taken them.
    pub fn show(&mut self, cells: &[Cell]) -> Result<(), BrlapiError> {
        let n = self.cells;
        let dots: Vec<u8> = (0..n)
            .map(|i| cells.get(i).map_or(0, |c| c.bits()))
            .collect();
        let text: String = dots
            .iter()
            .map(|&d| char::from_u32(0x2800 + u32::from(d)).unwrap_or(' '))
            .collect();
        let text = CString::new(text).unwrap_or_default();
        let and_mask = vec![0u8; n];
        let utf8 = c"UTF-8";
        let arguments = WriteArguments {
            display_number: -1,
            region_begin: 1,
            region_size: c_int::try_from(n).unwrap_or(c_int::MAX),
            text: text.as_ptr(),
            text_size: c_int::try_from(text.as_bytes().len()).unwrap_or(c_int::MAX),
            and_mask: and_mask.as_ptr(),
            or_mask: dots.as_ptr(),
            cursor: 0,
            charset: utf8.as_ptr(),
        };
        let handle = self.raw();
        // SAFETY: an open handle in tty mode; the region is the display's
        // `n` cells, and the text (n characters, its byte length given),
        // the AND mask and the OR mask (n bytes each) are ours and live
        // until the call returns.
        if unsafe { brlapi__write(handle, &arguments) } < 0 {
            return Err(BrlapiError::last("writing"));
        }
        // SAFETY: an open handle; the round trip reports an error the
        // server found in the write.
        if unsafe { brlapi__sync(handle) } < 0 {
            return Err(BrlapiError::last("writing"));
        }
        Ok(())
    }

    /// The next key pressed on the display, waiting up to `timeout_ms`.
    pub fn key(&mut self, timeout_ms: i32) -> Result<Option<Key>, BrlapiError> {
        let mut code = 0u64;
        let handle = self.raw();
        // SAFETY: an open handle in tty mode; `code` is ours, written by
        // the call when it returns 1.
        match unsafe { brlapi__readKeyWithTimeout(handle, timeout_ms, &mut code) } {
            1 => Ok(Some(Key::of(code))),
            0 => Ok(None),
            _ => {
                let e = BrlapiError::last("reading a key");
                // Another packet came instead of a key (a parameter's
                // change): nothing was pressed.
                let interrupted = e.code == BRLAPI_ERROR_LIBCERR
                    // SAFETY: as in `BrlapiError::last`.
                    && unsafe { (*brlapi_error_location()).libcerrno } == libc::EINTR;
                if interrupted { Ok(None) } else { Err(e) }
            }
        }
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        if !self.handle.is_empty() {
            let handle = self.raw();
            // SAFETY: a handle that was opened; closing it once frees the
            // library's state and its socket.
            unsafe { brlapi__closeConnection(handle) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_routing_key_is_its_cell_and_a_command_its_block() {
        assert_eq!(Key::of(0x2001_0003), Key::Route(3));
        assert_eq!(
            Key::of(0x2000_0018),
            Key::Command {
                block: 0,
                argument: 24
            }
        );
        assert_eq!(Key::of(0xFF0D), Key::Sym(0xFF0D));
        // Flags in the upper half are left aside.
        assert_eq!(Key::of(0x0000_0100_2001_0005), Key::Route(5));
    }
}
