//! The guard every request passes before its route (pure): a `Host` that is
//! not loopback answers 421, an `Origin` that is present and not loopback
//! 403, and, when the token is required, a missing or wrong
//! `Authorization: Bearer <token>` 401. This keeps a web page in the user's
//! browser (DNS rebinding, cross-site posts) away from the ingress.

use hyper::header::{HeaderMap, AUTHORIZATION, HOST, ORIGIN};
use hyper::StatusCode;

/// Why the guard turned a request away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// 421, 403 or 401.
    pub status: StatusCode,
    /// A short reason for the log and the answer's body (never the token).
    pub reason: &'static str,
}

/// Check a request's headers, in order Host, Origin, token. A request with
/// no `Host` at all (HTTP/1.0) passes that rule: a browser always sends one.
/// Every `Host` and `Origin` value present must pass.
pub fn check(headers: &HeaderMap, require_token: bool, token: &str) -> Result<(), Refusal> {
    if !headers.get_all(HOST).iter().all(|v| v.to_str().is_ok_and(is_loopback_host)) {
        return Err(Refusal { status: StatusCode::MISDIRECTED_REQUEST, reason: "host is not loopback" });
    }
    if !headers.get_all(ORIGIN).iter().all(|v| v.to_str().is_ok_and(is_loopback_origin)) {
        return Err(Refusal { status: StatusCode::FORBIDDEN, reason: "origin is not loopback" });
    }
    if require_token {
        let mut values = headers.get_all(AUTHORIZATION).iter();
        let ok = match (values.next(), values.next()) {
            (Some(v), None) => bearer_matches(v.as_bytes(), token),
            _ => false,
        };
        if !ok {
            return Err(Refusal { status: StatusCode::UNAUTHORIZED, reason: "missing or wrong token" });
        }
    }
    Ok(())
}

/// True for `127.0.0.1`, `localhost` (any case) and `[::1]`, each with or
/// without a `:port`.
pub fn is_loopback_host(value: &str) -> bool {
    let (host, port) = if value.starts_with('[') {
        match value.find(']') {
            Some(i) => (&value[..=i], &value[i + 1..]),
            None => return false,
        }
    } else {
        match value.find(':') {
            Some(i) => (&value[..i], &value[i..]),
            None => (value, ""),
        }
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u32>().is_ok_and(|n| n <= 65_535));
    port_ok && (host == "127.0.0.1" || host == "[::1]" || host.eq_ignore_ascii_case("localhost"))
}

/// True for an `http://` or `https://` origin whose host is loopback (see
/// [`is_loopback_host`]). `null` and every other origin are not.
pub fn is_loopback_origin(value: &str) -> bool {
    let lower = value.get(..8).map(str::to_ascii_lowercase).unwrap_or_default();
    let rest = if lower.starts_with("http://") {
        &value[7..]
    } else if lower.starts_with("https://") {
        &value[8..]
    } else {
        return false;
    };
    is_loopback_host(rest)
}

/// True when `header` is `Bearer <token>` (the scheme in any case) and the
/// token is `expected`, compared in constant time. An empty `expected`
/// matches nothing.
pub fn bearer_matches(header: &[u8], expected: &str) -> bool {
    if expected.is_empty() || header.len() < 7 || !header[..7].eq_ignore_ascii_case(b"bearer ") {
        return false;
    }
    let given = header[7..].trim_ascii();
    constant_time_eq(given, expected.as_bytes())
}

/// Byte equality whose time depends only on the lengths, not on where the
/// first difference is.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        for ok in ["127.0.0.1", "127.0.0.1:8770", "localhost", "LocalHost:1", "[::1]", "[::1]:8770"] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in
            ["evil.example", "127.0.0.2", "localhost.", "localhost:", "localhost:x", "[::1]x", "[::2]", "127.0.0.1:99999", "localhost.evil.example", "", "[::1"]
        {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins() {
        for ok in ["http://127.0.0.1", "http://localhost:5173", "https://[::1]:1", "HTTP://localhost"] {
            assert!(is_loopback_origin(ok), "{ok}");
        }
        for bad in ["null", "https://evil.example", "http://localhost/", "file://", "http://localhost.evil.example", "ws://localhost"] {
            assert!(!is_loopback_origin(bad), "{bad}");
        }
    }

    #[test]
    fn bearer() {
        assert!(bearer_matches(b"Bearer abc", "abc"));
        assert!(bearer_matches(b"bearer  abc ", "abc"));
        assert!(!bearer_matches(b"Bearer abd", "abc"));
        assert!(!bearer_matches(b"Basic abc", "abc"));
        assert!(!bearer_matches(b"Bearer ", ""));
    }
}
