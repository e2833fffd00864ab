//! Plain HTTP, once the pages are served over HTTPS: every request is sent
//! on to the same path on the HTTPS port (308, which keeps the method),
//! at the host name it was asked by. Nothing else is answered here, so no
//! secret and no session ever crosses the hall's network in the clear.

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use super::limits::Lives;
use super::request::{Privilege, Routes};
use super::{Error, Server};

/// The host a request named, without its port (`[::1]` kept bracketed).
fn host_of(headers: &HeaderMap) -> Option<&str> {
    let host = headers.get(header::HOST)?.to_str().ok()?;
    Some(match host.strip_prefix('[') {
        Some(rest) => &host[..rest.find(']').map_or(host.len(), |i| i + 2)],
        None => host.split(':').next().unwrap_or(host),
    })
}

/// Where a request for `uri` by `host` goes: the same path and query on
/// the HTTPS `port`.
pub fn location(host: &str, port: u16, uri: &Uri) -> String {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    format!("https://{host}:{port}{path}")
}

/// Serves on `listen` (the value of `key`) only redirects to HTTPS on
/// `port`, to requests whose `Host` is an IP address, `localhost` or one
/// of `names`.
pub fn start(
    key: &'static str,
    listen: &str,
    names: &[String],
    port: u16,
) -> Result<Server, Error> {
    let app = Router::new().fallback(move |headers: HeaderMap, uri: Uri| async move {
        let Some(host) = host_of(&headers) else {
            return (StatusCode::BAD_REQUEST, "no host named\n").into_response();
        };
        let mut r: Response = (StatusCode::PERMANENT_REDIRECT, "").into_response();
        if let Ok(to) = HeaderValue::from_str(&location(host, port, &uri)) {
            r.headers_mut().insert(header::LOCATION, to);
        }
        r
    });
    Server::start(
        key,
        listen,
        "https-redirect",
        names.to_vec(),
        Routes {
            router: app,
            privilege: Privilege::none(),
        },
        Lives::default(),
        |stopped| async move {
            let _ = stopped.await;
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_goes_to_the_same_path_on_the_https_port_at_the_host_it_named() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("192.168.1.20:8080"));
        let uri: Uri = "/console?x=1".parse().expect("uri");
        assert_eq!(
            location(host_of(&h).expect("host"), 8443, &uri),
            "https://192.168.1.20:8443/console?x=1"
        );
        h.insert(header::HOST, HeaderValue::from_static("[fe80::1]:8080"));
        assert_eq!(host_of(&h), Some("[fe80::1]"));
        h.insert(header::HOST, HeaderValue::from_static("pegboard.local"));
        assert_eq!(host_of(&h), Some("pegboard.local"));
    }
}
