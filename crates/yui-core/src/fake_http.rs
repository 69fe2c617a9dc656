//! Tests only: tiny HTTP servers on free loopback ports that answer canned
//! bodies by path (the discovery and voice-setup tests), one that refuses
//! and one that never answers.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// One canned answer: the path, its status and (JSON) body.
pub(crate) type Route = (&'static str, u16, String);

/// One canned answer of any type: the path, status, `Content-Type`, body.
pub(crate) type TypedRoute = (&'static str, u16, &'static str, Vec<u8>);

/// A fake HTTP server: each path answers its route, any other `default`;
/// every answer carries `server` as its `Server` header when given. Its port.
pub(crate) async fn fake(routes: Vec<Route>, default: (u16, &'static str), server: Option<&'static str>) -> u16 {
    fake_keyed(None, routes, default, server).await
}

/// [`fake`] that answers 401 to a request without `Authorization: Bearer <key>`.
pub(crate) async fn fake_keyed(key: Option<&'static str>, routes: Vec<Route>, default: (u16, &'static str), server: Option<&'static str>) -> u16 {
    let typed = routes.into_iter().map(|(path, status, body)| (path, status, "application/json", body.into_bytes())).collect();
    fake_typed(key, typed, default, server).await
}

/// [`fake_keyed`] whose answers carry their own `Content-Type`.
pub(crate) async fn fake_typed(key: Option<&'static str>, routes: Vec<TypedRoute>, default: (u16, &'static str), server: Option<&'static str>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let routes = routes.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&request);
                let path = text.split_whitespace().nth(1).unwrap_or("/").to_string();
                let authorized = key.is_none_or(|k| text.to_ascii_lowercase().contains(&format!("authorization: bearer {}", k.to_ascii_lowercase())));
                let (status, mime, body) = if !authorized {
                    (401, "application/json", br#"{"error":"Unauthorized"}"#.to_vec())
                } else {
                    routes.iter().find(|(p, ..)| *p == path).map(|(_, s, m, b)| (*s, *m, b.clone())).unwrap_or((
                        default.0,
                        "application/json",
                        default.1.as_bytes().to_vec(),
                    ))
                };
                let header = server.map(|s| format!("Server: {s}\r\n")).unwrap_or_default();
                let head = format!("HTTP/1.1 {status} X\r\nContent-Type: {mime}\r\nContent-Length: {}\r\n{header}Connection: close\r\n\r\n", body.len());
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&body).await;
            });
        }
    });
    port
}

/// A port nothing listens on.
pub(crate) async fn refusing() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap().port()
}

/// A port that takes connections and never answers.
pub(crate) async fn hanging() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    port
}
