//! The domains' changes, remembered record by record: a write to one DNS
//! record of a zone of thousands costs that record (its old value kept to
//! undo it, itself saved in the change log), not a copy of the zone.

use std::collections::BTreeMap;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::state::{DnsRec, DomainOver};

/// One edit of a zone's records, with what undoes it.
#[derive(Debug)]
enum Edit {
    /// The record at `pos` was `old`.
    Replaced { pos: usize, old: DnsRec },
    /// A record was added last.
    Pushed { id: u64 },
    /// `old` was removed from `pos`.
    Removed { pos: usize, old: DnsRec },
}

/// What one domain was before its first change since the last commit,
/// and the edits of its records since, oldest first.
#[derive(Debug)]
pub(crate) struct DomainUndo {
    /// The domain had no changes at all (no entry).
    absent: bool,
    ttl: Option<i64>,
    /// Its records were the generated ones (not materialised).
    generated: bool,
    edits: Vec<Edit>,
}

impl DomainUndo {
    /// The domain's shell (everything but its records) before.
    pub(crate) fn old_ttl(&self) -> Option<Option<i64>> {
        (!self.absent).then_some(self.ttl)
    }

    /// Its records were not materialised before (the generated ones held).
    pub(crate) fn was_generated(&self) -> bool {
        self.generated
    }

    /// The ids of the records changed, added or removed.
    pub(crate) fn touched_ids(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .edits
            .iter()
            .map(|e| match e {
                Edit::Replaced { old, .. } | Edit::Removed { old, .. } => old.id,
                Edit::Pushed { id } => *id,
            })
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The record `id` before the first edit (None: it did not exist).
    pub(crate) fn old_record(&self, id: u64) -> Option<&DnsRec> {
        for e in &self.edits {
            match e {
                Edit::Replaced { old, .. } | Edit::Removed { old, .. } if old.id == id => {
                    return Some(old);
                }
                Edit::Pushed { id: p } if *p == id => return None,
                _ => {}
            }
        }
        None
    }
}

/// The domains' overlay: a map by domain index whose mutating methods
/// remember what they change (reads go through `Deref`).
#[derive(Debug, Default)]
pub(crate) struct TrackedDomains {
    map: BTreeMap<usize, DomainOver>,
    undo: BTreeMap<usize, DomainUndo>,
}

impl Deref for TrackedDomains {
    type Target = BTreeMap<usize, DomainOver>;

    fn deref(&self) -> &BTreeMap<usize, DomainOver> {
        &self.map
    }
}

/// The records of one domain, open for editing; each edit is remembered.
pub(crate) struct RecordsMut<'a> {
    recs: &'a mut Vec<DnsRec>,
    edits: &'a mut Vec<Edit>,
}

impl RecordsMut<'_> {
    /// The records, in order.
    pub(crate) fn as_slice(&self) -> &[DnsRec] {
        self.recs
    }

    /// Replace the record at `pos` (keeping its id).
    pub(crate) fn replace(&mut self, pos: usize, rec: DnsRec) {
        debug_assert_eq!(self.recs[pos].id, rec.id, "a replaced record keeps its id");
        let old = std::mem::replace(&mut self.recs[pos], rec);
        self.edits.push(Edit::Replaced { pos, old });
    }

    /// Add a record last.
    pub(crate) fn push(&mut self, rec: DnsRec) {
        self.edits.push(Edit::Pushed { id: rec.id });
        self.recs.push(rec);
    }

    /// Remove the record at `pos`.
    pub(crate) fn remove(&mut self, pos: usize) -> DnsRec {
        let old = self.recs.remove(pos);
        self.edits.push(Edit::Removed {
            pos,
            old: old.clone(),
        });
        old
    }
}

impl TrackedDomains {
    fn touch(&mut self, i: usize) -> (&mut DomainOver, &mut DomainUndo) {
        let map = &self.map;
        let u = self.undo.entry(i).or_insert_with(|| {
            let old = map.get(&i);
            DomainUndo {
                absent: old.is_none(),
                ttl: old.and_then(|d| d.ttl),
                generated: old.is_none_or(|d| d.records.is_none()),
                edits: Vec::new(),
            }
        });
        (self.map.entry(i).or_default(), u)
    }

    /// Set domain `i`'s TTL.
    pub(crate) fn set_ttl(&mut self, i: usize, ttl: Option<i64>) {
        self.touch(i).0.ttl = ttl;
    }

    /// Domain `i`'s records for editing, materialised from `generated` on
    /// its first write.
    pub(crate) fn records_mut(
        &mut self,
        i: usize,
        generated: impl FnOnce() -> Vec<DnsRec>,
    ) -> RecordsMut<'_> {
        let (d, u) = self.touch(i);
        RecordsMut {
            recs: d.records.get_or_insert_with(generated),
            edits: &mut u.edits,
        }
    }

    /// The domains changed since the last call, with what undoes them;
    /// they count as unchanged from now on.
    pub(crate) fn take_undo(&mut self) -> BTreeMap<usize, DomainUndo> {
        std::mem::take(&mut self.undo)
    }

    /// Undo changes (the answer of [`TrackedDomains::take_undo`]).
    pub(crate) fn restore(&mut self, undo: BTreeMap<usize, DomainUndo>) {
        for (i, u) in undo {
            if u.absent {
                self.map.remove(&i);
                continue;
            }
            let Some(d) = self.map.get_mut(&i) else {
                continue;
            };
            d.ttl = u.ttl;
            if u.generated {
                d.records = None;
                continue;
            }
            let Some(recs) = d.records.as_mut() else {
                continue;
            };
            for e in u.edits.into_iter().rev() {
                match e {
                    Edit::Replaced { pos, old } => recs[pos] = old,
                    Edit::Pushed { .. } => {
                        recs.pop();
                    }
                    Edit::Removed { pos, old } => recs.insert(pos, old),
                }
            }
        }
    }

    /// Set or remove a domain without tracking it (loading a saved state).
    pub(crate) fn apply(&mut self, i: usize, d: Option<DomainOver>) {
        match d {
            Some(d) => self.map.insert(i, d),
            None => self.map.remove(&i),
        };
    }

    /// The map itself, untracked (loading a saved state).
    pub(crate) fn raw_mut(&mut self) -> &mut BTreeMap<usize, DomainOver> {
        &mut self.map
    }
}

impl Serialize for TrackedDomains {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for TrackedDomains {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(TrackedDomains {
            map: BTreeMap::deserialize(d)?,
            undo: BTreeMap::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: u64, content: &str) -> DnsRec {
        DnsRec {
            id,
            host: "a.example".into(),
            rtype: "TXT".into(),
            content: content.into(),
            priority: None,
        }
    }

    fn generated() -> Vec<DnsRec> {
        vec![rec(1, "one"), rec(2, "two"), rec(3, "three")]
    }

    #[test]
    fn restore_undoes_every_edit_of_a_materialised_zone() {
        let mut d = TrackedDomains::default();
        d.records_mut(0, generated);
        d.set_ttl(0, Some(600));
        d.take_undo();
        let before = d.get(&0).cloned();
        {
            let mut r = d.records_mut(0, Vec::new);
            r.replace(1, rec(2, "deux"));
            r.push(rec(9, "nine"));
            r.remove(0);
            r.replace(0, rec(2, "zwei"));
        }
        d.set_ttl(0, Some(3600));
        let u = d.take_undo();
        assert_eq!(u[&0].touched_ids(), vec![1, 2, 9]);
        assert_eq!(u[&0].old_record(2).map(|r| r.content.as_str()), Some("two"));
        assert_eq!(u[&0].old_record(9), None);
        assert_eq!(u[&0].old_ttl(), Some(Some(600)));
        let after = d.get(&0).cloned().expect("domain");
        assert_eq!(
            after
                .records
                .iter()
                .flatten()
                .map(|r| (r.id, r.content.as_str()))
                .collect::<Vec<_>>(),
            vec![(2, "zwei"), (3, "three"), (9, "nine")]
        );
        d.restore(u);
        assert_eq!(d.get(&0).cloned(), before);
        assert!(d.take_undo().is_empty());
    }

    #[test]
    fn restore_forgets_a_domain_first_changed_in_the_undone_commit() {
        let mut d = TrackedDomains::default();
        d.records_mut(4, generated).push(rec(7, "seven"));
        d.set_ttl(4, Some(60));
        let u = d.take_undo();
        assert!(u[&4].was_generated());
        assert_eq!(u[&4].old_ttl(), None);
        d.restore(u);
        assert!(d.get(&4).is_none());

        d.apply(
            5,
            Some(DomainOver {
                ttl: Some(300),
                records: None,
            }),
        );
        d.records_mut(5, generated).remove(2);
        let u = d.take_undo();
        assert_eq!(u[&5].old_ttl(), Some(Some(300)));
        d.restore(u);
        assert_eq!(
            d.get(&5),
            Some(&DomainOver {
                ttl: Some(300),
                records: None
            })
        );
    }
}
