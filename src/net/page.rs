//! A self-contained page served with its policy: a fresh nonce for its one
//! inline script and style each time, and a Content-Security-Policy that
//! allows those and nothing else from anywhere but the server itself.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// Whether the page may be shown inside another site's frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frames {
    /// Any page may frame it (the mirror, for a broadcast's overlay).
    Allowed,
    /// No page may (the console: a frame could trick a click).
    Refused,
}

/// `html` with a nonce on its `<script>` and `<style>` tags, and the policy
/// that lets only those run.
pub fn serve(html: &str, frames: Frames) -> Response {
    let mut bytes = [0u8; 16];
    // Without random numbers the page is still served, under a policy no
    // inline script passes: it fails closed.
    let nonce: String = if getrandom::fill(&mut bytes).is_ok() {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    } else {
        String::new()
    };
    let body = html
        .replace("<script>", &format!("<script nonce=\"{nonce}\">"))
        .replace("<style>", &format!("<style nonce=\"{nonce}\">"));
    let ancestors = match frames {
        Frames::Allowed => "",
        Frames::Refused => "; frame-ancestors 'none'",
    };
    let policy = format!(
        "default-src 'self'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; \
         img-src 'self' data:; base-uri 'none'; form-action 'self'{ancestors}"
    );
    let mut r = (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&policy) {
        r.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    if frames == Frames::Refused {
        r.headers_mut()
            .insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    r
}
