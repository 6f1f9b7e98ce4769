//! The one place that decides which documented alternative a record is sent
//! in.
//!
//! The documents allow several spellings of many fields (an id as a string or
//! an integer, a price as a number or a decimal string, `ipAddresses` as an
//! array or an object, …). A client must read all of them, so the simulator
//! sends all of them — but never by record position: a choice keyed on the
//! index (`i % 2`) gives every seed the same pattern, so tests that read
//! "record 3" meet one spelling for ever. Here each choice is a hash of
//! (seed, quirk key, record identity):
//!
//! * **per seed**: another seed gives another pattern;
//! * **per field**: each quirk has its own key, so two fields of a record are
//!   chosen independently;
//! * **stable**: the same record reads the same way on every request, in
//!   any order of arrival (nothing here depends on state or time), so two
//!   reads of one record compare equal;
//! * **covering**: every alternative occurs at every seed. Pure hashing over
//!   a small population (4 CDN origins, 10 racks) would miss one now and then,
//!   so each quirk also has an *anchor*: a window of consecutive records,
//!   starting at a hashed position, that takes the alternatives in turn. The
//!   rest are drawn by weight.
//!
//! Which facts a record has (how many IPs, whether it has a reference, whether
//! a domain is editable) stay with the dataset; this module only picks how a
//! fact is written, plus a few documented shapes that carry less (an empty
//! `ipAddresses`, an absent `networkTraffic`, an installation error code).

use crate::util::{hash3, mix};

/// The population a quirk's records belong to: it sizes the anchor window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pop {
    /// v1 virtual servers, by index.
    V1Vs,
    /// Domains, by index.
    Domain,
    /// Bare metal servers, by index.
    BareMetal,
    /// The two MAC addresses of each bare metal: `2 · index + k`.
    BareMetalMac,
    /// Private racks, by index.
    Rack,
    /// Cloud virtual servers, by index.
    Cloud,
    /// Private clouds, by index.
    PrivateCloud,
    /// The CDN origins of the dataset, by `id − 101`.
    Origin,
    /// Open-ended records (DNS records, IPs, purge entries): identity is a
    /// number the caller derives; no anchor, hashing only.
    Open,
}

/// A field (or shape) the documents let vary, and its alternatives.
#[derive(Debug)]
pub(crate) struct Quirk {
    /// Stable name: hashed into every choice, and used in docs and tests.
    pub(crate) key: &'static str,
    /// Whose records it varies over.
    pub(crate) pop: Pop,
    /// The alternatives, each with a weight (how often it is drawn outside the
    /// anchor window).
    pub(crate) alternatives: &'static [(&'static str, u32)],
}

macro_rules! quirks {
    ($($(#[$doc:meta])* $name:ident = ($key:literal, $pop:ident, [$($alt:literal: $w:literal),+ $(,)?]);)+) => {
        $($(#[$doc])* pub(crate) const $name: Quirk = Quirk {
            key: $key,
            pop: Pop::$pop,
            alternatives: &[$(($alt, $w)),+],
        };)+
        /// Every quirk (listed by [`crate::quirks`]).
        pub(crate) const ALL: &[&Quirk] = &[$(&$name),+];
    };
}

/// The quirk keys. A number field that may be "displayed as a string" uses the
/// alternatives `number` / `string`; the value is the same either way.
pub(crate) mod q {
    use super::{Pop, Quirk};

    quirks! {
        // ------------------------------------------------ v1 virtual servers
        /// `ipAddresses` as an array of `{ip,…}` or an object keyed by IP.
        VS_IP_SHAPE = ("v1.vs.ipAddresses.shape", V1Vs, ["array": 1, "object": 1]);
        /// Which addresses: IPv4 only, IPv4 plus an IPv6 address, or none
        /// (`[]` / `{}` by the shape above).
        VS_IP_SET = ("v1.vs.ipAddresses.set", V1Vs, ["ipv4": 2, "ipv4+ipv6": 1, "none": 1]);
        /// `type` as `{Id,…}`, `{id,…}` or absent.
        VS_TYPE = ("v1.vs.type", V1Vs, ["Id": 1, "id": 1, "absent": 1]);
        /// The type id as a number or a string.
        VS_TYPE_ID = ("v1.vs.type.id", V1Vs, ["number": 1, "string": 1]);
        /// `administrativeInfo.endDate`: null, "", a date, or absent.
        VS_END_DATE = ("v1.vs.endDate", V1Vs, ["null": 1, "empty": 1, "date": 1, "absent": 1]);
        /// `reference`: a text, null, or "" (both meaning none).
        VS_REFERENCE = ("v1.vs.reference", V1Vs, ["text": 2, "null": 1, "empty": 1]);
        /// `macAddress` letter case.
        VS_MAC_CASE = ("v1.vs.macAddress.case", V1Vs, ["upper": 1, "lower": 1, "mixed": 1]);
        /// `dataTrafficLimit` (GB) as a number or a string.
        VS_TRAFFIC_LIMIT = ("v1.vs.dataTrafficLimit", V1Vs, ["number": 1, "string": 1]);

        // ------------------------------------------------ domains and DNS
        /// `contractTerm` as "1 year"/"2 years" or an integer.
        DOMAIN_TERM = ("v1.domain.contractTerm", Domain, ["string": 1, "number": 1]);
        /// `monthlyPrice` as a decimal string or a number.
        DOMAIN_PRICE = ("v1.domain.monthlyPrice", Domain, ["string": 1, "number": 1]);
        /// `isEditable` as "true"/"false" or a boolean.
        DOMAIN_EDITABLE = ("v1.domain.isEditable", Domain, ["string": 1, "boolean": 1]);
        /// `ttl` as a number or a string.
        DOMAIN_TTL = ("v1.domain.ttl", Domain, ["number": 1, "string": 1]);
        /// A DNS record's `id` in lists (documented integer, displayed string).
        DNS_ID_LIST = ("v1.dns.id.list", Open, ["string": 2, "number": 1]);
        /// A DNS record's `id` in the single view (GET, POST, PUT answers).
        DNS_ID_ONE = ("v1.dns.id.single", Open, ["number": 2, "string": 1]);

        // ------------------------------------------------ bare metals
        /// `bareMetalId` in the list (a string there in the docs).
        BM_ID_LIST = ("v1.bm.list.bareMetalId", BareMetal, ["string": 2, "number": 1]);
        /// `bareMetalId` in the detail (integer documented, string displayed).
        BM_ID = ("v1.bm.bareMetalId", BareMetal, ["number": 1, "string": 1]);
        /// `serverHostingPack.bareMetalId`.
        BM_PACK_ID = ("v1.bm.serverHostingPack.bareMetalId", BareMetal, ["number": 1, "string": 1]);
        /// `reference` (list, detail and pack alike): a text, null, or "".
        BM_REFERENCE = ("v1.bm.reference", BareMetal, ["text": 2, "null": 1, "empty": 1]);
        /// `serverHostingPack.endDate`: null, "", a date, or absent.
        BM_END_DATE = ("v1.bm.serverHostingPack.endDate", BareMetal, ["null": 1, "empty": 1, "date": 1, "absent": 1]);
        /// `serverHostingPack.serverPrice` as 129.0 or "129.00".
        BM_PRICE = ("v1.bm.serverHostingPack.serverPrice", BareMetal, ["number": 1, "string": 1]);
        /// `network.excessIpsPrice`.
        BM_EXCESS_IP_PRICE = ("v1.bm.network.excessIpsPrice", BareMetal, ["number": 1, "string": 1]);
        /// `network.pricePerMonth`.
        BM_NETWORK_PRICE = ("v1.bm.network.pricePerMonth", BareMetal, ["number": 1, "string": 1]);
        /// `network.dataPackExcess.value`.
        BM_EXCESS_VALUE = ("v1.bm.network.dataPackExcess.value", BareMetal, ["number": 1, "string": 1]);
        /// `network.ipsFreeOfCharge` and `network.ipsAssigned`.
        BM_IP_COUNTS = ("v1.bm.network.ipCounts", BareMetal, ["number": 1, "string": 1]);
        /// `server.numberOfCpus` and `server.numberOfCores`.
        BM_CPU_COUNTS = ("v1.bm.server.cpuCounts", BareMetal, ["number": 1, "string": 1]);
        /// `serviceLevelAgreement.pricePerMonth`.
        BM_SLA_PRICE = ("v1.bm.serviceLevelAgreement.pricePerMonth", BareMetal, ["number": 1, "string": 1]);
        /// Letter case of each MAC address of `macAddresses.mac`.
        BM_MAC_CASE = ("v1.bm.macAddresses.case", BareMetalMac, ["upper": 1, "lower": 1, "mixed": 1]);
        /// `installationStatus.serverPackId`.
        BM_PACK_ID_STATUS = ("v1.bm.installationStatus.serverPackId", BareMetal, ["string": 1, "number": 1]);
        /// The server name of the installation status: `serverName` (sent) or
        /// `serverPackName` (documented).
        BM_STATUS_NAME = ("v1.bm.installationStatus.nameKey", BareMetal, ["serverName": 2, "serverPackName": 1]);
        /// The installation status a server starts in, before any install or
        /// rescue: normal (code 1000) or an error code.
        BM_STATUS_CODE = ("v1.bm.installationStatus.code", BareMetal, ["normal": 9, "error": 1]);
        /// The root password key: `rootPassword` (sent) or `rootpassword`
        /// (documented).
        BM_ROOT_PASSWORD_KEY = ("v1.bm.rootPassword.key", BareMetal, ["rootPassword": 2, "rootpassword": 1]);
        /// The lease list: the sample's outer array, or the bare object.
        BM_LEASES_WRAP = ("v1.bm.leases.wrapping", BareMetal, ["array": 1, "object": 1]);
        /// A single lease: in a one-element array (sample) or bare.
        BM_LEASE_WRAP = ("v1.bm.lease.wrapping", BareMetal, ["array": 1, "object": 1]);

        // ------------------------------------------------ IPs
        /// `ipDetails` netmask key: `mask` (sample) or `netmask` (documented).
        /// Keyed by the IP.
        IP_MASK_KEY = ("v1.ip.ipDetails.maskKey", Open, ["mask": 2, "netmask": 1]);
        /// `billingInformation.endDate` when there is no end: null or "".
        IP_NO_END = ("v1.ip.billingInformation.endDate", Open, ["null": 1, "empty": 1]);

        // ------------------------------------------------ private racks
        /// `privateRackId` in the list (a string there).
        RACK_ID_LIST = ("v1.rack.list.privateRackId", Rack, ["string": 2, "number": 1]);
        /// `privateRackId` in the detail (an integer documented).
        RACK_ID = ("v1.rack.privateRackId", Rack, ["number": 1, "string": 1]);
        /// `privateRackId` on the rack's IPs.
        RACK_IP_ID = ("v1.rack.ip.privateRackId", Rack, ["string": 1, "number": 1]);
        /// `serverHostingPack.privateRackId`.
        RACK_PACK_ID = ("v1.rack.serverHostingPack.privateRackId", Rack, ["string": 1, "number": 1]);
        /// `serverHostingPack.endDate`: null, "", a date, or absent.
        RACK_END_DATE = ("v1.rack.serverHostingPack.endDate", Rack, ["null": 1, "empty": 1, "date": 1, "absent": 1]);
        /// `serverHostingPack.reference`: a text, null, or "".
        RACK_REFERENCE = ("v1.rack.reference", Rack, ["text": 2, "null": 1, "empty": 1]);

        // ------------------------------------------------ cloud v2
        /// `contract.pricePerFrequency` as a number or a decimal string.
        CLOUD_PRICE = ("cloud.vs.contract.pricePerFrequency", Cloud, ["number": 3, "string": 1]);
        /// `networkTraffic` present or absent (omitted from some samples).
        CLOUD_TRAFFIC = ("cloud.vs.networkTraffic", Cloud, ["present": 3, "absent": 1]);
        /// `networkTraffic.datatrafficLimit` as a number or a string.
        CLOUD_TRAFFIC_LIMIT = ("cloud.vs.networkTraffic.datatrafficLimit", Cloud, ["number": 1, "string": 1]);
        /// The server's IPs: public v4, v6 and private v4, or none at all.
        CLOUD_IPS = ("cloud.vs.ips", Cloud, ["some": 9, "none": 1]);
        /// `reference`: a text, null, or "".
        CLOUD_REFERENCE = ("cloud.vs.reference", Cloud, ["text": 2, "null": 1, "empty": 1]);
        /// `hardware.memory` in MB or GB (the same amount).
        CLOUD_MEMORY_UNIT = ("cloud.vs.hardware.memory.unit", Cloud, ["MB": 1, "GB": 1]);
        /// A private cloud's `contract.pricePerFrequency`.
        PRIVATE_CLOUD_PRICE = ("cloud.privateCloud.contract.pricePerFrequency", PrivateCloud, ["number": 1, "string": 1]);

        // ------------------------------------------------ CDN
        /// The payload key of an origin read: `succes` (sample) or `success`.
        ORIGIN_KEY = ("cdn.origin.payloadKey", Origin, ["succes": 1, "success": 1]);
        /// When a purge entry is done: half-way or at the end of the purge
        /// time, so a job's entries show mixed statuses in between. Keyed by
        /// job id and entry position.
        PURGE_PACE = ("cdn.purge.entryPace", Open, ["early": 1, "late": 1]);
    }
}

/// Populations' sizes and the seed: everything a choice depends on.
#[derive(Debug, Clone)]
pub(crate) struct Variants {
    seed: u64,
    v1_vs: usize,
    domains: usize,
    bare_metals: usize,
    racks: usize,
    cloud: usize,
    private_clouds: usize,
    origins: usize,
}

/// The number of CDN origins in the dataset (ids 101–104).
pub(crate) const DATASET_ORIGINS: usize = 4;

/// FNV-1a of a quirk key: a stable number per key (not `std`'s hasher, whose
/// output may change between Rust releases).
const fn key_hash(key: &str) -> u64 {
    let b = key.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut k = 0;
    while k < b.len() {
        h ^= b[k] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        k += 1;
    }
    h
}

/// A record identity from text (an IP address, a URL): FNV-1a, mixed.
pub(crate) fn ident(text: &str) -> u64 {
    mix(key_hash(text))
}

impl Variants {
    pub(crate) fn new(
        seed: u64,
        v1_vs: usize,
        domains: usize,
        bare_metals: usize,
        racks: usize,
        cloud: usize,
        private_clouds: usize,
    ) -> Self {
        Variants {
            seed,
            v1_vs,
            domains,
            bare_metals,
            racks,
            cloud,
            private_clouds,
            origins: DATASET_ORIGINS,
        }
    }

    fn population(&self, p: Pop) -> usize {
        match p {
            Pop::V1Vs => self.v1_vs,
            Pop::Domain => self.domains,
            Pop::BareMetal => self.bare_metals,
            Pop::BareMetalMac => 2 * self.bare_metals,
            Pop::Rack => self.racks,
            Pop::Cloud => self.cloud,
            Pop::PrivateCloud => self.private_clouds,
            Pop::Origin => self.origins,
            Pop::Open => 0,
        }
    }

    /// The index (into `q.alternatives`) of the alternative `record` is sent
    /// in.
    pub(crate) fn pick(&self, q: &Quirk, record: u64) -> usize {
        let key = key_hash(q.key);
        let n = q.alternatives.len() as u64;
        let count = self.population(q.pop) as u64;
        // The anchor window: records start, start+1, … (wrapping) take the
        // alternatives in turn, so each occurs whatever the hash draws.
        if count >= n && record < count {
            let start = hash3(self.seed, key, u64::MAX) % count;
            let offset = (record + count - start) % count;
            if offset < n {
                return offset as usize;
            }
        }
        let total: u64 = q.alternatives.iter().map(|a| u64::from(a.1)).sum();
        let mut draw = hash3(self.seed, key, record) % total;
        for (k, (_, w)) in q.alternatives.iter().enumerate() {
            if draw < u64::from(*w) {
                return k;
            }
            draw -= u64::from(*w);
        }
        0
    }

    /// The name of the alternative `record` is sent in.
    pub(crate) fn name(&self, q: &Quirk, record: u64) -> &'static str {
        q.alternatives[self.pick(q, record)].0
    }

    /// Whether `record` is sent in alternative `alt` (which must be one of
    /// the quirk's: a misspelt name is a bug, caught in debug builds).
    pub(crate) fn is(&self, q: &Quirk, record: u64, alt: &str) -> bool {
        debug_assert!(
            q.alternatives.iter().any(|a| a.0 == alt),
            "{} has no alternative {alt}",
            q.key
        );
        self.name(q, record) == alt
    }

    /// An integer, as a JSON number or a string, as `q` says for `record`.
    pub(crate) fn int(&self, q: &Quirk, record: u64, v: i64) -> serde_json::Value {
        if self.is(q, record, "string") {
            serde_json::Value::String(v.to_string())
        } else {
            serde_json::Value::from(v)
        }
    }

    /// An amount of money in cents, as a JSON number (129.0) or a decimal
    /// string ("129.00"), as `q` says for `record`.
    pub(crate) fn money(&self, q: &Quirk, record: u64, cents: i64) -> serde_json::Value {
        if self.is(q, record, "string") {
            serde_json::Value::String(format!(
                "{}{}.{:02}",
                if cents < 0 { "-" } else { "" },
                cents.abs() / 100,
                cents.abs() % 100
            ))
        } else {
            serde_json::json!(cents as f64 / 100.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::q::{self, ALL};
    use super::{Pop, Variants};

    fn variants(seed: u64) -> Variants {
        Variants::new(seed, 20, 20, 20, 10, 40, 10)
    }

    fn pattern(v: &Variants, quirk: &super::Quirk, n: u64) -> Vec<usize> {
        (0..n).map(|r| v.pick(quirk, r)).collect()
    }

    #[test]
    fn the_same_seed_gives_the_same_choices() {
        for quirk in ALL {
            assert_eq!(
                pattern(&variants(7), quirk, 40),
                pattern(&variants(7), quirk, 40),
                "{}",
                quirk.key
            );
        }
    }

    #[test]
    fn choices_are_stable_whatever_the_order_of_reads() {
        let v = variants(3);
        let forward = pattern(&v, &q::VS_IP_SHAPE, 20);
        let backward: Vec<usize> = (0..20u64)
            .rev()
            .map(|r| v.pick(&q::VS_IP_SHAPE, r))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        assert_eq!(forward, backward);
    }

    #[test]
    fn other_seeds_give_other_patterns() {
        for quirk in ALL {
            let base = pattern(&variants(0), quirk, 40);
            let differs = (1..6).any(|s| pattern(&variants(s), quirk, 40) != base);
            assert!(differs, "{} is the same at seeds 0–5", quirk.key);
        }
    }

    #[test]
    fn fields_are_chosen_independently() {
        // Two quirks with the same alternatives and population do not follow
        // one pattern.
        let v = variants(11);
        assert_ne!(
            pattern(&v, &q::BM_PRICE, 20),
            pattern(&v, &q::BM_SLA_PRICE, 20)
        );
        assert_ne!(pattern(&v, &q::BM_ID, 20), pattern(&v, &q::BM_PACK_ID, 20));
    }

    #[test]
    fn no_choice_follows_the_index() {
        // The old rules: even/odd. At some seed each quirk breaks them.
        for quirk in ALL.iter().filter(|q| q.alternatives.len() == 2) {
            let follows = |seed| {
                let v = variants(seed);
                let p = pattern(&v, quirk, 20);
                p.iter().enumerate().all(|(i, k)| *k == i % 2)
            };
            assert!((0..4).any(|s| !follows(s)), "{}", quirk.key);
        }
    }

    #[test]
    fn every_alternative_occurs_in_every_anchored_population() {
        for seed in [0, 1, 2, 42, 1_000_003] {
            let v = variants(seed);
            for quirk in ALL.iter().filter(|q| q.pop != Pop::Open) {
                let count = v.population(quirk.pop) as u64;
                let seen: std::collections::BTreeSet<usize> =
                    (0..count).map(|r| v.pick(quirk, r)).collect();
                assert_eq!(
                    seen.len(),
                    quirk.alternatives.len(),
                    "{} at seed {seed}",
                    quirk.key
                );
            }
        }
    }

    #[test]
    fn keys_are_unique() {
        let mut keys: Vec<&str> = ALL.iter().map(|q| q.key).collect();
        keys.sort_unstable();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }

    #[test]
    fn numbers_keep_their_value_in_either_spelling() {
        let v = variants(5);
        let spelt: Vec<serde_json::Value> =
            (0..20).map(|r| v.money(&q::BM_PRICE, r, 12_900)).collect();
        assert!(spelt.contains(&serde_json::json!("129.00")));
        assert!(spelt.contains(&serde_json::json!(129.0)));
        let ints: Vec<serde_json::Value> =
            (0..20).map(|r| v.int(&q::BM_CPU_COUNTS, r, 8)).collect();
        assert!(ints.contains(&serde_json::json!("8")) && ints.contains(&serde_json::json!(8)));
    }
}
