//! A map that remembers which keys changed since the last commit, and what
//! they held before: the change log persists only those keys, and a write
//! whose change cannot be saved is undone from the old values.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A `BTreeMap` whose mutating methods record the old value of each key
/// they touch (reads go through `Deref`).
#[derive(Debug)]
pub(crate) struct Tracked<K, V> {
    map: BTreeMap<K, V>,
    /// The value each touched key had before its first change since the
    /// last [`Tracked::take_undo`] (None: absent).
    undo: BTreeMap<K, Option<V>>,
}

impl<K, V> Default for Tracked<K, V> {
    fn default() -> Self {
        Tracked {
            map: BTreeMap::new(),
            undo: BTreeMap::new(),
        }
    }
}

impl<K, V> Deref for Tracked<K, V> {
    type Target = BTreeMap<K, V>;

    fn deref(&self) -> &BTreeMap<K, V> {
        &self.map
    }
}

impl<K: Ord + Clone, V: Clone> Tracked<K, V> {
    fn touch(&mut self, k: &K) {
        if !self.undo.contains_key(k) {
            self.undo.insert(k.clone(), self.map.get(k).cloned());
        }
    }

    /// As `BTreeMap::entry`; the key counts as changed.
    pub(crate) fn entry(&mut self, k: K) -> Entry<'_, K, V> {
        self.touch(&k);
        self.map.entry(k)
    }

    /// As `BTreeMap::insert`.
    pub(crate) fn insert(&mut self, k: K, v: V) -> Option<V> {
        self.touch(&k);
        self.map.insert(k, v)
    }

    /// As `BTreeMap::remove`.
    pub(crate) fn remove(&mut self, k: &K) -> Option<V> {
        self.touch(k);
        self.map.remove(k)
    }

    /// As `BTreeMap::get_mut`; the key counts as changed.
    pub(crate) fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.touch(k);
        self.map.get_mut(k)
    }

    /// As `BTreeMap::pop_first`.
    pub(crate) fn pop_first(&mut self) -> Option<(K, V)> {
        let k = self.map.keys().next().cloned()?;
        self.touch(&k);
        self.map.pop_first()
    }

    /// The keys changed since the last call, with their old values; they
    /// count as unchanged from now on.
    pub(crate) fn take_undo(&mut self) -> BTreeMap<K, Option<V>> {
        std::mem::take(&mut self.undo)
    }

    /// Put old values back (the answer of [`Tracked::take_undo`]).
    pub(crate) fn restore(&mut self, undo: BTreeMap<K, Option<V>>) {
        for (k, old) in undo {
            match old {
                Some(v) => self.map.insert(k, v),
                None => self.map.remove(&k),
            };
        }
    }

    /// Set or remove a key without tracking it (loading a saved state).
    pub(crate) fn apply(&mut self, k: K, v: Option<V>) {
        match v {
            Some(v) => self.map.insert(k, v),
            None => self.map.remove(&k),
        };
    }
}

impl<K: Serialize, V: Serialize> Serialize for Tracked<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.map.serialize(s)
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for Tracked<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Tracked {
            map: BTreeMap::deserialize(d)?,
            undo: BTreeMap::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restore_puts_back_what_each_key_held_before_its_first_change() {
        let mut m: Tracked<u32, String> = Tracked::default();
        m.apply(1, Some("one".into()));
        m.apply(2, Some("two".into()));
        m.insert(1, "uno".into());
        m.insert(1, "eins".into());
        m.remove(&2);
        m.entry(3).or_insert_with(|| "three".into());
        if let Some(v) = m.get_mut(&3) {
            v.push('!');
        }
        let undo = m.take_undo();
        assert_eq!(undo.len(), 3);
        assert_eq!(m.get(&1).map(String::as_str), Some("eins"));
        m.restore(undo);
        assert_eq!(m.get(&1).map(String::as_str), Some("one"));
        assert_eq!(m.get(&2).map(String::as_str), Some("two"));
        assert!(!m.contains_key(&3));
        assert!(m.take_undo().is_empty());
    }
}
