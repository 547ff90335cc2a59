//! The connections the server holds, and which one gives way when a new
//! one needs room. A connection is either answering a request (its head
//! read, its answer not yet handed back) or waiting for a head: a new
//! client, a slow or stalled one, or an idle kept-alive one. Only waiting
//! connections are ever closed to make room, the one waiting longest
//! first: a client that sends its request at once is answering within
//! moments, while one that trickles its head, or keeps a connection idle,
//! is the oldest waiter and the first to go. No client therefore holds
//! the server by opening connections and saying little; and one client
//! address (an IPv6 client by its /64) never holds more than its share.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::Notify;

/// How many connections the server holds, and one client address.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    pub total: usize,
    pub per_client: usize,
}

/// Why a new connection is refused: every connection that could give way
/// is answering a request.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The client already has its share of connections, all answering.
    ClientFull(usize),
    /// The server holds all its connections, all answering.
    ServerFull(usize),
}

impl Refusal {
    pub fn message(&self) -> String {
        match self {
            Refusal::ClientFull(cap) => format!(
                "this client already has {cap} connections, all awaiting answers; try again once one is answered"
            ),
            Refusal::ServerFull(cap) => {
                format!("the server is answering {cap} requests at once; try again shortly")
            }
        }
    }
}

/// The table of open connections.
pub struct Connections {
    caps: Caps,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    next_id: u64,
    open: HashMap<u64, Entry>,
    per_client: HashMap<IpAddr, usize>,
}

struct Entry {
    client: IpAddr,
    /// Since when it has waited for a head; `None` while answering.
    waiting_since: Option<Instant>,
    close: Arc<Notify>,
}

/// A connection's place in the table, given back when dropped.
pub struct Slot {
    connections: Arc<Connections>,
    id: u64,
    close: Arc<Notify>,
}

/// Marks its connection as answering a request, until dropped.
pub struct Answering<'a> {
    slot: &'a Slot,
}

impl Connections {
    pub fn new(caps: Caps) -> Arc<Connections> {
        Arc::new(Connections {
            caps,
            table: Mutex::new(Table::default()),
        })
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // The table is consistent after every statement that changes it,
        // so a panic elsewhere while it was held leaves it usable.
        self.table
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A place for a new connection from `address`, made by closing the
    /// connection that has waited longest (the client's own when it is at
    /// its cap), or why there is none.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Result<Slot, Refusal> {
        let client = client_of(address);
        let mut table = self.table();
        let held = table.per_client.get(&client).copied().unwrap_or(0);
        if held >= self.caps.per_client {
            if !table.close_longest_waiting(|entry| entry.client == client) {
                return Err(Refusal::ClientFull(self.caps.per_client));
            }
        } else if table.open.len() >= self.caps.total && !table.close_longest_waiting(|_| true) {
            return Err(Refusal::ServerFull(self.caps.total));
        }
        let id = table.next_id;
        table.next_id += 1;
        let close = Arc::new(Notify::new());
        table.open.insert(
            id,
            Entry {
                client,
                waiting_since: Some(Instant::now()),
                close: close.clone(),
            },
        );
        *table.per_client.entry(client).or_insert(0) += 1;
        Ok(Slot {
            connections: self.clone(),
            id,
            close,
        })
    }

    /// Connections open now.
    #[cfg(test)]
    fn open(&self) -> usize {
        self.table().open.len()
    }
}

impl Table {
    /// Closes the connection among `eligible` ones that has waited
    /// longest for a head; false when every one is answering.
    fn close_longest_waiting(&mut self, eligible: impl Fn(&Entry) -> bool) -> bool {
        let longest = self
            .open
            .iter()
            .filter(|(_, entry)| eligible(entry))
            .filter_map(|(id, entry)| Some((entry.waiting_since?, *id)))
            .min();
        let Some((_, id)) = longest else {
            return false;
        };
        self.remove(id);
        true
    }

    /// Takes connection `id` out of the table and tells it to close (a
    /// no-op if it is gone already).
    fn remove(&mut self, id: u64) {
        let Some(entry) = self.open.remove(&id) else {
            return;
        };
        entry.close.notify_one();
        if let Some(held) = self.per_client.get_mut(&entry.client) {
            *held -= 1;
            if *held == 0 {
                self.per_client.remove(&entry.client);
            }
        }
    }

    fn set_waiting(&mut self, id: u64, since: Option<Instant>) {
        if let Some(entry) = self.open.get_mut(&id) {
            entry.waiting_since = since;
        }
    }
}

impl Slot {
    /// The connection is answering a request until the guard is dropped;
    /// then it waits again, the newest waiter.
    pub fn answering(&self) -> Answering<'_> {
        self.connections.table().set_waiting(self.id, None);
        Answering { slot: self }
    }

    /// Ends when the connection is to close, to make room for another.
    pub async fn closed(&self) {
        self.close.notified().await;
    }
}

impl Drop for Answering<'_> {
    fn drop(&mut self) {
        let slot = self.slot;
        slot.connections
            .table()
            .set_waiting(slot.id, Some(Instant::now()));
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.connections.table().remove(self.id);
    }
}

/// The client an address stands for: an IPv6 client by its /64, which
/// one host is commonly given whole; an IPv4-mapped address as IPv4.
fn client_of(address: IpAddr) -> IpAddr {
    match address.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    const OTHER: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 2));

    fn connections(total: usize, per_client: usize) -> Arc<Connections> {
        Connections::new(Caps { total, per_client })
    }

    /// Whether the slot was told to close.
    fn told_to_close(slot: &Slot) -> bool {
        let notified = slot.close.notified();
        let mut notified = std::pin::pin!(notified);
        notified.as_mut().enable()
    }

    #[test]
    fn a_client_at_its_cap_gives_way_longest_waiting_first() {
        let table = connections(10, 2);
        let first = table.admit(HOME).unwrap();
        let second = table.admit(HOME).unwrap();
        let _other = table.admit(OTHER).unwrap();
        let third = table.admit(HOME).unwrap();
        assert!(told_to_close(&first));
        assert!(!told_to_close(&second) && !told_to_close(&third));
        assert_eq!(table.open(), 3);
        // The second is answering: the third, now longest waiting, goes.
        let _busy = second.answering();
        let _fourth = table.admit(HOME).unwrap();
        assert!(told_to_close(&third));
        assert!(!told_to_close(&second));
    }

    #[test]
    fn answering_connections_never_give_way() {
        let table = connections(2, 2);
        let first = table.admit(HOME).unwrap();
        let second = table.admit(OTHER).unwrap();
        let (_a, _b) = (first.answering(), second.answering());
        assert_eq!(table.admit(HOME).err(), Some(Refusal::ServerFull(2)));
        let third = connections(5, 1);
        let only = third.admit(HOME).unwrap();
        let _answering = only.answering();
        assert_eq!(third.admit(HOME).err(), Some(Refusal::ClientFull(1)));
        assert!(third.admit(OTHER).is_ok());
    }

    #[test]
    fn a_full_server_closes_the_longest_idle_connection_of_anyone() {
        let table = connections(2, 2);
        let first = table.admit(OTHER).unwrap();
        let second = table.admit(HOME).unwrap();
        // The first answers and goes idle after the second began waiting.
        drop(first.answering());
        let _third = table.admit(HOME).unwrap();
        assert!(told_to_close(&second));
        assert!(!told_to_close(&first));
        drop(second);
        assert_eq!(table.open(), 2);
    }

    #[test]
    fn a_closed_connection_gives_its_place_back() {
        let table = connections(1, 1);
        let slot = table.admit(HOME).unwrap();
        drop(slot);
        assert_eq!(table.open(), 0);
        let again = table.admit(HOME).unwrap();
        let _busy = again.answering();
        assert!(table.admit(OTHER).is_err());
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64_prefix() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_of(a), client_of(b));
        assert_ne!(client_of(a), client_of(c));
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert_eq!(client_of(mapped), HOME);
    }
}
