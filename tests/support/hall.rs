//! Many addresses of a hall's network, on loopback: Linux routes all of
//! 127.0.0.0/8 to the loopback device, so a client bound to 127.0.0.N
//! reaches a server on 127.0.0.1 as another address would.

use std::net::{SocketAddr, TcpStream};

/// A connection to `to` from 127.`a`.`b`.`c` (not 127.0.0.1 unless asked).
#[allow(dead_code)]
pub fn connect_from(from: [u8; 3], to: SocketAddr) -> TcpStream {
    try_connect_from(from, to).expect("connects from a loopback address")
}

/// The same, or why not (an attacker's connection may be refused).
#[allow(dead_code)]
pub fn try_connect_from(from: [u8; 3], to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    let here = SocketAddr::from(([127, from[0], from[1], from[2]], 0));
    socket.bind(&here.into())?;
    socket.connect_timeout(&to.into(), std::time::Duration::from_secs(2))?;
    Ok(socket.into())
}

/// The `i`th of many hall machines, each an address of its own:
/// 127.x.y.1 with x ≥ 1, never 127.0.0.1.
#[allow(dead_code)]
pub fn address(i: usize) -> [u8; 3] {
    [(i / 250) as u8 + 1, (i % 250) as u8 + 1, 1]
}

/// Address `host` of network `network` (127.0.`network`.`host`): the
/// addresses of one laptop that has taken many in the hall's network.
#[allow(dead_code)]
pub fn in_network(network: u8, host: u8) -> [u8; 3] {
    [0, network, host]
}
