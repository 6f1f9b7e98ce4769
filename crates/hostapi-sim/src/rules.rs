//! Per-operation fault rules, set through `/_sim/faults` (or
//! [`crate::Sim::add_faults`]).
//!
//! A rule names an operation by its operationId (`"installBareMetal"`;
//! `"cloud.listVirtualServers"` for one of the six names infra and cloud
//! share, which alone mean both), by `METHOD /path` (`"POST
//! /v1/bareMetals/{bareMetalId}/install"`), or `"*"`, and a fault.
//! Each rule keeps, per operation, how many matching requests it has seen
//! and how many it has spoilt: `times` caps the latter, and `probability`
//! is decided by a hash of (seed, rule id, operation, that request's
//! number) — so the outcome of the n-th call of an operation does not
//! depend on how calls of other operations interleave with it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::faults::{FaultKind, Plan};
use crate::util::{hash3, kind};

/// Largest number of rules kept at once.
pub const MAX_FAULT_RULES: usize = 100;

/// One fault rule. `Default` gives an empty rule to fill in:
/// `FaultRule { operation: "GET /v1/domains".into(), fault: "status".into(),
/// status: Some(503), times: Some(1), ..Default::default() }`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FaultRule {
    /// Assigned by the simulator (ignored on input).
    #[serde(default)]
    pub id: u64,
    /// An operationId (`"installBareMetal"`, `"cloud.rebootVirtualServer"`),
    /// `METHOD /path` (`"GET /v1/domains"`), or `"*"` for every operation.
    pub operation: String,
    /// `status`, `latency`, `drop-before`, `drop-after`, `truncate` or
    /// `malformed`.
    pub fault: String,
    /// The status of a `status` fault (400–599).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// `Retry-After` seconds sent with a `status` fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    /// Milliseconds of a `latency` fault (at most
    /// [`crate::MAX_LATENCY_MS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Spoil at most this many requests per operation (default: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times: Option<u64>,
    /// Chance (0–1) that a matching request is spoilt (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    /// Requests spoilt so far (output only).
    #[serde(default)]
    pub fired: u64,
}

const FAULTS: &[&str] = &[
    "status",
    "latency",
    "drop-before",
    "drop-after",
    "truncate",
    "malformed",
];

impl FaultRule {
    /// Check the rule; answers the routes its operation names (None for
    /// `"*"`).
    pub(crate) fn validate(&self) -> Result<Option<Vec<&'static str>>, String> {
        let targets = if self.operation == "*" {
            None
        } else {
            Some(
                crate::operations::resolve(&self.operation)
                    .map_err(|e| format!("operation: {e}, or \"*\""))?,
            )
        };
        if !FAULTS.contains(&self.fault.as_str()) {
            return Err(format!(
                "fault: must be one of {}, got {:?}",
                FAULTS.join(", "),
                self.fault
            ));
        }
        match (self.fault.as_str(), self.status) {
            ("status", Some(s)) if (400..=599).contains(&s) => {}
            ("status", _) => return Err("status: a status fault needs a status 400–599".into()),
            (_, Some(_)) => return Err("status: only a status fault takes a status".into()),
            _ => {}
        }
        match (self.fault.as_str(), self.latency_ms) {
            ("latency", Some(ms)) if ms <= crate::MAX_LATENCY_MS => {}
            ("latency", _) => {
                return Err(format!(
                    "latency_ms: a latency fault needs 0–{}",
                    crate::MAX_LATENCY_MS
                ));
            }
            (_, Some(_)) => return Err("latency_ms: only a latency fault takes latency_ms".into()),
            _ => {}
        }
        if self.retry_after.is_some() && self.fault != "status" {
            return Err("retry_after: only a status fault takes retry_after".into());
        }
        if self.times == Some(0) {
            return Err("times: must be at least 1".into());
        }
        if let Some(p) = self.probability
            && !(0.0..=1.0).contains(&p)
        {
            return Err("probability: must be within 0–1".into());
        }
        Ok(targets)
    }
}

/// The rules in force and their per-operation counters.
#[derive(Debug, Default)]
pub(crate) struct Rules {
    pub(crate) rules: Vec<FaultRule>,
    /// The routes each rule (same index) applies to; None for every one.
    targets: Vec<Option<Vec<&'static str>>>,
    next_id: u64,
    /// (rule id, operation) → (requests seen, requests spoilt).
    counters: HashMap<(u64, String), (u64, u64)>,
}

fn op_hash(op: &str) -> u64 {
    op.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

impl Rules {
    /// Validate and add rules (all or none); answers them with their ids.
    pub(crate) fn add(&mut self, rules: Vec<FaultRule>) -> Result<Vec<FaultRule>, String> {
        let mut targets = Vec::new();
        for (i, r) in rules.iter().enumerate() {
            targets.push(r.validate().map_err(|e| format!("rule {i}: {e}"))?);
        }
        if self.rules.len() + rules.len() > MAX_FAULT_RULES {
            return Err(format!("at most {MAX_FAULT_RULES} fault rules"));
        }
        let mut out = Vec::new();
        for (mut r, t) in rules.into_iter().zip(targets) {
            self.next_id += 1;
            r.id = self.next_id;
            r.fired = 0;
            self.rules.push(r.clone());
            self.targets.push(t);
            out.push(r);
        }
        Ok(out)
    }

    /// Remove one rule (true) or none.
    pub(crate) fn remove(&mut self, id: u64) -> bool {
        let Some(i) = self.rules.iter().position(|r| r.id == id) else {
            return false;
        };
        self.rules.remove(i);
        self.targets.remove(i);
        self.counters.retain(|(rid, _), _| *rid != id);
        true
    }

    pub(crate) fn clear(&mut self) {
        self.rules.clear();
        self.targets.clear();
        self.counters.clear();
    }

    /// The plan for one request of the operation `op` (its route), or None
    /// when no rule spoils it.
    pub(crate) fn decide(&mut self, seed: u64, op: &str, base: &Plan) -> Option<Plan> {
        let mut plan = base.clone();
        let mut any = false;
        let rules = self.rules.iter_mut().zip(&self.targets);
        for (r, _) in rules.filter(|(_, t)| t.as_ref().is_none_or(|t| t.contains(&op))) {
            let c = self.counters.entry((r.id, op.to_string())).or_default();
            let n = c.0;
            c.0 += 1;
            if r.times.is_some_and(|t| c.1 >= t) {
                continue;
            }
            if let Some(p) = r.probability {
                let h = hash3(
                    seed ^ r.id.rotate_left(29),
                    kind::FAULTS,
                    op_hash(op) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                );
                let u = (h >> 11) as f64 / (1u64 << 53) as f64;
                if u >= p {
                    continue;
                }
            }
            c.1 += 1;
            r.fired += 1;
            any = true;
            match r.fault.as_str() {
                "latency" => {
                    plan.latency_ms = plan.latency_ms.saturating_add(r.latency_ms.unwrap_or(0));
                    continue;
                }
                "status" => {
                    let s = r.status.unwrap_or(503);
                    plan.kind = Some(match s {
                        429 => FaultKind::TooManyRequests,
                        502 => FaultKind::BadGateway,
                        503 => FaultKind::ServiceUnavailable,
                        _ => FaultKind::InternalServerError,
                    });
                    plan.status = Some(s);
                    if let Some(ra) = r.retry_after {
                        plan.retry_after = ra;
                        plan.send_retry_after = true;
                    }
                }
                other => plan.kind = FaultKind::parse(other),
            }
            break;
        }
        any.then_some(plan)
    }
}
