//! What a request says about itself: the peer it came from, the site whose
//! page sent it, the credential it carries; and the JSON answers.

use std::net::{IpAddr, SocketAddr};

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::limits::BODY_WITHIN;

/// The peer's address, put on each request by the server.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// Put on each request by the server: whether it shows a credential its
/// owner accepts ([`Privilege`]), judged only when asked
/// ([`Credential::shown`]), as judging a secret counts a wrong one. One
/// shown makes its connection's place its own (never taken by a newcomer).
#[derive(Clone)]
pub struct Credential {
    privilege: Privilege,
    from: IpAddr,
    on_shown: Option<std::sync::Arc<dyn Fn() + Send + Sync>>,
}

impl Credential {
    /// `on_shown`: told when a credential is shown.
    pub fn new(
        privilege: Privilege,
        from: IpAddr,
        on_shown: Option<std::sync::Arc<dyn Fn() + Send + Sync>>,
    ) -> Credential {
        Credential {
            privilege,
            from,
            on_shown,
        }
    }

    /// Whether the request whose head is `headers` shows a credential.
    pub fn shown(&self, headers: &HeaderMap) -> bool {
        let shown = self.privilege.holds(headers, self.from);
        if shown && let Some(told) = &self.on_shown {
            told();
        }
        shown
    }
}

/// Who keeps his places when the server is full: a test of a request's
/// head and its peer's address, given by the routes' owner (the console:
/// a live session, or its secret, counted as the console counts wrong
/// ones), and the quiet part of it that judges no secret (a live session),
/// which the server asks of every request.
#[derive(Clone)]
pub struct Privilege {
    test: std::sync::Arc<Test>,
    quiet: std::sync::Arc<Quiet>,
}

/// The test a [`Privilege`] makes of a request's head and peer.
type Test = dyn Fn(&HeaderMap, IpAddr) -> bool + Send + Sync;

/// The part of it that judges no secret.
type Quiet = dyn Fn(&HeaderMap) -> bool + Send + Sync;

impl Privilege {
    pub fn new(
        test: impl Fn(&HeaderMap, std::net::IpAddr) -> bool + Send + Sync + 'static,
        quiet: impl Fn(&HeaderMap) -> bool + Send + Sync + 'static,
    ) -> Self {
        Privilege {
            test: std::sync::Arc::new(test),
            quiet: std::sync::Arc::new(quiet),
        }
    }

    /// Nobody (a mirror without a console).
    pub fn none() -> Privilege {
        Privilege::new(|_, _| false, |_| false)
    }

    /// Whether the request shows a credential (a wrong secret counted).
    pub fn holds(&self, headers: &HeaderMap, from: std::net::IpAddr) -> bool {
        (self.test)(headers, from)
    }

    /// Whether it shows one that needs no secret judged (a live session).
    pub fn holds_quietly(&self, headers: &HeaderMap) -> bool {
        (self.quiet)(headers)
    }
}

impl Default for Privilege {
    fn default() -> Privilege {
        Privilege::none()
    }
}

/// Routes to serve, with who keeps his places when the server is full.
#[derive(Clone, Default)]
pub struct Routes {
    pub router: axum::Router,
    pub privilege: Privilege,
}

/// A JSON answer.
pub fn answer(code: StatusCode, body: serde_json::Value) -> Response {
    (
        code,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// A refusal, with why in words: `{"error": why}`.
pub fn refuse(code: StatusCode, why: &str) -> Response {
    answer(code, serde_json::json!({ "error": why }))
}

/// Whether the request comes from another site's page (its `Origin`, or
/// the browser's `Sec-Fetch-Site`): a page in the hall must not drive the
/// game through a logged-in phone.
pub fn foreign(headers: &HeaderMap) -> bool {
    let mut origins = headers.get_all(header::ORIGIN).iter();
    let Some(origin) = origins.next() else {
        return headers
            .get("sec-fetch-site")
            .is_some_and(|s| s.as_bytes() == b"cross-site");
    };
    // Two are no browser's: which would count?
    if origins.next().is_some() {
        return true;
    }
    let host = headers
        .get(header::HOST)
        .map(HeaderValue::as_bytes)
        .unwrap_or_default();
    let origin = origin.as_bytes();
    let own = |scheme: &[u8]| {
        origin.len() == scheme.len() + host.len()
            && origin.starts_with(scheme)
            && &origin[scheme.len()..] == host
    };
    host.is_empty() || !(own(b"http://") || own(b"https://"))
}

/// Whether the request carries exactly one `Origin`, this server's own:
/// what a page of its own sends with every request that changes state.
pub fn same_origin(headers: &HeaderMap) -> bool {
    headers.get_all(header::ORIGIN).iter().count() == 1 && !foreign(headers)
}

/// Whether `port` is a port number as a `Host` writes it.
fn is_port(port: &str) -> bool {
    !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok()
}

/// Whether the request's body is declared JSON (`Content-Type:
/// application/json`, parameters allowed): a form or `text/plain`, which a
/// page of another site may send without asking, is not.
pub fn json_body(headers: &HeaderMap) -> bool {
    let mut types = headers.get_all(header::CONTENT_TYPE).iter();
    let (Some(given), None) = (types.next(), types.next()) else {
        return false;
    };
    given.to_str().is_ok_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
    })
}

/// Among a server's host names: it answers to any. No configured name can
/// be this (a name is letters, digits, dots and hyphens).
pub const ANY_HOST: &str = "*";

/// Whether the request's `Host` is one this server answers to: an IP
/// address (any of the machine's, with any port), `localhost`, or one of
/// `names` (`[mirror] hosts`). A name the server does not know is what a
/// DNS-rebinding page sends, after pointing its own name at the board: its
/// `Origin` would match its `Host`, so `Host` itself is checked. A request
/// without `Host` (HTTP/1.0) comes from no browser, and is let through.
/// [`ANY_HOST`] among `names` answers every name: for a server of public
/// files only, which a rebinding page gains nothing by reading.
pub fn own_host(headers: &HeaderMap, names: &[String]) -> bool {
    if names.iter().any(|n| n == ANY_HOST) {
        return true;
    }
    let mut hosts = headers.get_all(header::HOST).iter();
    let Some(host) = hosts.next() else {
        return true;
    };
    if hosts.next().is_some() {
        return false;
    }
    let Ok(host) = host.to_str() else {
        return false;
    };
    let name = if let Some(rest) = host.strip_prefix('[') {
        // An IPv6 literal, "[::1]:8080": the address, then nothing or a
        // port.
        let Some((address, after)) = rest.split_once(']') else {
            return false;
        };
        return address.parse::<std::net::Ipv6Addr>().is_ok()
            && (after.is_empty() || after.strip_prefix(':').is_some_and(is_port));
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if is_port(port) => name,
            Some(_) => return false,
            None => host,
        }
    };
    name.parse::<std::net::Ipv4Addr>().is_ok()
        || name.eq_ignore_ascii_case("localhost")
        || names.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// The secret given as `Authorization: Bearer …`.
pub fn bearer(headers: &HeaderMap) -> Option<&[u8]> {
    headers
        .get(header::AUTHORIZATION)?
        .as_bytes()
        .strip_prefix(b"Bearer ")
}

/// The value of the cookie `name`.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix(name)?.strip_prefix('='))
}

/// A request that may change something, its head checked: its headers,
/// the peer's address and its body, not yet read. One from another site's
/// page is answered with the refusal. The body is read only after the
/// request has shown its right to send one ([`body`]).
pub fn head(request: Request) -> Result<(HeaderMap, IpAddr, Body), Refused> {
    let (parts, body) = request.into_parts();
    let from = parts
        .extensions
        .get::<Peer>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |p| p.0.ip());
    if foreign(&parts.headers) {
        return Err(Refused(
            StatusCode::FORBIDDEN,
            "a request from another site's page is refused",
        ));
    }
    Ok((parts.headers, from, body))
}

/// A request refused before anything of it was read: the status and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused(pub StatusCode, pub &'static str);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        refuse(self.0, self.1)
    }
}

/// A request's body: at most `limit` bytes, arrived whole within
/// [`BODY_WITHIN`]; else the refusal.
pub async fn body(body: Body, limit: usize) -> Result<Bytes, Response> {
    match tokio::time::timeout(BODY_WITHIN, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request is too large",
        )),
        Err(_) => Err(refuse(
            StatusCode::REQUEST_TIMEOUT,
            "the request's body did not arrive in time",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn a_page_of_the_same_host_is_not_foreign() {
        let own = headers(&[
            ("host", "10.0.0.5:8080"),
            ("origin", "http://10.0.0.5:8080"),
        ]);
        assert!(!foreign(&own));
        let tls = headers(&[("host", "board.local"), ("origin", "https://board.local")]);
        assert!(!foreign(&tls));
        // No Origin and no browser hint: a command-line client.
        assert!(!foreign(&headers(&[("host", "board.local")])));
    }

    #[test]
    fn another_sites_page_is_foreign() {
        for origin in [
            "http://evil.example",
            "http://10.0.0.5:8081",
            "http://10.0.0.5:8080.evil.example",
            "null",
        ] {
            let h = headers(&[("host", "10.0.0.5:8080"), ("origin", origin)]);
            assert!(foreign(&h), "{origin}");
        }
        assert!(foreign(&headers(&[("origin", "http://x")])), "no Host");
        assert!(foreign(&headers(&[("sec-fetch-site", "cross-site")])));
    }

    #[test]
    fn two_origins_are_foreign_and_a_logged_in_page_must_name_its_own() {
        let two = headers(&[
            ("host", "10.0.0.5:8080"),
            ("origin", "http://10.0.0.5:8080"),
            ("origin", "http://evil.example"),
        ]);
        assert!(foreign(&two));
        assert!(!same_origin(&two));
        let own = headers(&[
            ("host", "10.0.0.5:8080"),
            ("origin", "http://10.0.0.5:8080"),
        ]);
        assert!(same_origin(&own));
        assert!(!same_origin(&headers(&[("host", "10.0.0.5:8080")])), "none");
        let other = headers(&[
            ("host", "10.0.0.5:8080"),
            ("origin", "http://10.0.0.6:8080"),
        ]);
        assert!(!same_origin(&other));
    }

    #[test]
    fn only_a_body_declared_json_is_taken() {
        for json in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON",
        ] {
            assert!(json_body(&headers(&[("content-type", json)])), "{json}");
        }
        for other in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
        ] {
            assert!(!json_body(&headers(&[("content-type", other)])), "{other}");
        }
        assert!(!json_body(&HeaderMap::new()), "none");
        assert!(
            !json_body(&headers(&[
                ("content-type", "application/json"),
                ("content-type", "text/plain")
            ])),
            "two"
        );
    }

    #[test]
    fn only_the_servers_own_hosts_are_answered() {
        let names = vec!["pegboard.local".to_string()];
        for own in [
            "127.0.0.1",
            "10.0.0.5:8080",
            "[::1]:8080",
            "localhost:8080",
            "PegBoard.local:8080",
        ] {
            assert!(own_host(&headers(&[("host", own)]), &names), "{own}");
        }
        for foreign in [
            "evil.example",
            "evil.example:8080",
            "10.0.0.5.evil.example",
            "[evil]:80",
            "[::1]evil.example",
            "[::1]:80evil.example",
            "127.0.0.1:80@evil.example",
            "127.0.0.1:@evil.example",
            "127.0.0.1:99999",
            "localhost:",
        ] {
            assert!(
                !own_host(&headers(&[("host", foreign)]), &names),
                "{foreign}"
            );
        }
        assert!(own_host(&HeaderMap::new(), &[]), "no Host: no browser");
        let any = [ANY_HOST.to_string()];
        assert!(own_host(&headers(&[("host", "club.example.org")]), &any));
        assert!(
            !own_host(
                &headers(&[("host", "127.0.0.1"), ("host", "evil.example")]),
                &names
            ),
            "two Hosts"
        );
    }

    #[test]
    fn the_credentials_are_read_from_their_headers() {
        let h = headers(&[
            ("authorization", "Bearer s3cret"),
            ("cookie", "a=1; pegboard-session=abc"),
            ("cookie", "other=2"),
        ]);
        assert_eq!(bearer(&h), Some(&b"s3cret"[..]));
        assert_eq!(cookie(&h, "pegboard-session"), Some("abc"));
        assert_eq!(cookie(&h, "other"), Some("2"));
        assert_eq!(cookie(&h, "missing"), None);
        assert_eq!(bearer(&headers(&[("authorization", "Basic x")])), None);
    }
}
