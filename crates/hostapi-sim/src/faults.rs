//! Fault injection: per request through the `X-Sim-Fault` header, or at
//! random (seeded) from [`FaultConfig`].

use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// Largest added latency, in milliseconds: of [`FaultConfig::latency_ms`]
/// (`--latency-ms`), of a `latency=` in `X-Sim-Fault` and of a latency
/// rule. One minute is longer than any client's patience worth testing.
pub const MAX_LATENCY_MS: u64 = 60_000;

/// A fault the simulator can inject into one request.
///
/// Which faults change state:
/// * [`TooManyRequests`](FaultKind::TooManyRequests),
///   [`InternalServerError`](FaultKind::InternalServerError),
///   [`BadGateway`](FaultKind::BadGateway),
///   [`ServiceUnavailable`](FaultKind::ServiceUnavailable) and
///   [`DropBefore`](FaultKind::DropBefore) are decided before the request is
///   handled: the operation does not run and **no state changes**.
/// * [`DropAfter`](FaultKind::DropAfter), [`Truncate`](FaultKind::Truncate)
///   and [`Malformed`](FaultKind::Malformed) run the operation (its **state
///   change is applied** and logged) and then spoil the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// 429 with `Retry-After: <seconds>` and a JSON error body.
    TooManyRequests,
    /// 500 with a JSON error body.
    InternalServerError,
    /// 502 with an HTML body, as a proxy answers.
    BadGateway,
    /// 503 with a JSON error body.
    ServiceUnavailable,
    /// The connection is closed before the request is handled, without any
    /// answer.
    DropBefore,
    /// The request is handled, then the connection is closed without any
    /// answer.
    DropAfter,
    /// The request is handled; the answer announces its full
    /// `Content-Length` but the body stops halfway and the connection is
    /// closed (the client sees a body error).
    Truncate,
    /// The request is handled; the answer is complete but its body is not
    /// valid JSON (status kept; a 204 becomes a 200 so a body can be sent).
    Malformed,
}

impl FaultKind {
    /// Every kind.
    pub const ALL: [FaultKind; 8] = [
        FaultKind::TooManyRequests,
        FaultKind::InternalServerError,
        FaultKind::BadGateway,
        FaultKind::ServiceUnavailable,
        FaultKind::DropBefore,
        FaultKind::DropAfter,
        FaultKind::Truncate,
        FaultKind::Malformed,
    ];

    /// The kind's name in [`crate::Stats::faults`] and in `X-Sim-Fault`.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::TooManyRequests => "429",
            FaultKind::InternalServerError => "500",
            FaultKind::BadGateway => "502",
            FaultKind::ServiceUnavailable => "503",
            FaultKind::DropBefore => "drop-before",
            FaultKind::DropAfter => "drop-after",
            FaultKind::Truncate => "truncate",
            FaultKind::Malformed => "malformed",
        }
    }

    /// Whether the fault is decided before handling (no state change).
    pub fn before_handling(self) -> bool {
        !matches!(
            self,
            FaultKind::DropAfter | FaultKind::Truncate | FaultKind::Malformed
        )
    }

    /// Parse a name as used in `X-Sim-Fault`.
    pub fn parse(s: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// Relative weights of the kinds drawn by random injection.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultWeights {
    /// Weight of [`FaultKind::TooManyRequests`].
    pub too_many_requests: u32,
    /// Weight of [`FaultKind::InternalServerError`].
    pub internal_server_error: u32,
    /// Weight of [`FaultKind::BadGateway`].
    pub bad_gateway: u32,
    /// Weight of [`FaultKind::ServiceUnavailable`].
    pub service_unavailable: u32,
    /// Weight of [`FaultKind::DropBefore`].
    pub drop_before: u32,
    /// Weight of [`FaultKind::DropAfter`].
    pub drop_after: u32,
    /// Weight of [`FaultKind::Truncate`].
    pub truncate: u32,
    /// Weight of [`FaultKind::Malformed`].
    pub malformed: u32,
}

impl Default for FaultWeights {
    /// Every kind equally likely.
    fn default() -> Self {
        FaultWeights {
            too_many_requests: 1,
            internal_server_error: 1,
            bad_gateway: 1,
            service_unavailable: 1,
            drop_before: 1,
            drop_after: 1,
            truncate: 1,
            malformed: 1,
        }
    }
}

impl FaultWeights {
    /// Only `kind`, weight 1.
    pub fn only(kind: FaultKind) -> Self {
        let mut w = FaultWeights {
            too_many_requests: 0,
            internal_server_error: 0,
            bad_gateway: 0,
            service_unavailable: 0,
            drop_before: 0,
            drop_after: 0,
            truncate: 0,
            malformed: 0,
        };
        *w.weight_mut(kind) = 1;
        w
    }

    /// The weight of `kind`.
    pub fn weight(&self, kind: FaultKind) -> u32 {
        match kind {
            FaultKind::TooManyRequests => self.too_many_requests,
            FaultKind::InternalServerError => self.internal_server_error,
            FaultKind::BadGateway => self.bad_gateway,
            FaultKind::ServiceUnavailable => self.service_unavailable,
            FaultKind::DropBefore => self.drop_before,
            FaultKind::DropAfter => self.drop_after,
            FaultKind::Truncate => self.truncate,
            FaultKind::Malformed => self.malformed,
        }
    }

    fn weight_mut(&mut self, kind: FaultKind) -> &mut u32 {
        match kind {
            FaultKind::TooManyRequests => &mut self.too_many_requests,
            FaultKind::InternalServerError => &mut self.internal_server_error,
            FaultKind::BadGateway => &mut self.bad_gateway,
            FaultKind::ServiceUnavailable => &mut self.service_unavailable,
            FaultKind::DropBefore => &mut self.drop_before,
            FaultKind::DropAfter => &mut self.drop_after,
            FaultKind::Truncate => &mut self.truncate,
            FaultKind::Malformed => &mut self.malformed,
        }
    }
}

/// Random fault injection and added latency. The default injects nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultConfig {
    /// Probability (0.0–1.0) that a request gets a random fault. Requests
    /// carrying `X-Sim-Fault` are not drawn for.
    pub rate: f64,
    /// Relative weights of the kinds drawn.
    pub weights: FaultWeights,
    /// Latency added to every request, in real milliseconds (at most
    /// [`MAX_LATENCY_MS`]).
    pub latency_ms: u64,
    /// The `Retry-After` seconds of a 429 (default 1).
    pub retry_after_secs: u64,
}

impl Default for FaultConfig {
    fn default() -> Self {
        FaultConfig {
            rate: 0.0,
            weights: FaultWeights::default(),
            latency_ms: 0,
            retry_after_secs: 1,
        }
    }
}

/// What to do to one request.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Plan {
    pub(crate) kind: Option<FaultKind>,
    pub(crate) latency_ms: u64,
    pub(crate) retry_after: u64,
    /// The status of a status fault, when a rule gave one (else the kind's).
    pub(crate) status: Option<u16>,
    /// Send `Retry-After` whatever the status (a rule gave `retry_after`).
    pub(crate) send_retry_after: bool,
}

/// Parse an `X-Sim-Fault` header value.
pub(crate) fn parse_header(v: &str, cfg: &FaultConfig) -> Result<Plan, String> {
    let mut plan = Plan {
        retry_after: cfg.retry_after_secs,
        latency_ms: cfg.latency_ms,
        kind: None,
        ..Plan::default()
    };
    for part in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let p = part.to_ascii_lowercase();
        if let Some(ms) = p.strip_prefix("latency=") {
            let ms: u64 = ms
                .parse()
                .map_err(|_| format!("bad latency in X-Sim-Fault: {part}"))?;
            if ms > MAX_LATENCY_MS {
                return Err(format!(
                    "latency in X-Sim-Fault: at most {MAX_LATENCY_MS} ms, got {part}"
                ));
            }
            plan.latency_ms = plan.latency_ms.saturating_add(ms);
        } else if let Some(secs) = p.strip_prefix("429=") {
            plan.retry_after = secs
                .parse()
                .map_err(|_| format!("bad Retry-After in X-Sim-Fault: {part}"))?;
            plan.kind = Some(FaultKind::TooManyRequests);
        } else if let Some(k) = FaultKind::parse(&p) {
            plan.kind = Some(k);
        } else if p == "none" {
            plan.kind = None;
        } else {
            return Err(format!("unknown fault in X-Sim-Fault: {part}"));
        }
    }
    Ok(plan)
}

/// Draw a random plan.
pub(crate) fn draw(rng: &mut Pcg64Mcg, cfg: &FaultConfig) -> Plan {
    let mut plan = Plan {
        kind: None,
        latency_ms: cfg.latency_ms,
        retry_after: cfg.retry_after_secs,
        ..Plan::default()
    };
    if cfg.rate <= 0.0 {
        return plan;
    }
    let u: f64 = rng.random();
    if u >= cfg.rate {
        return plan;
    }
    let total: u64 = FaultKind::ALL
        .iter()
        .map(|k| u64::from(cfg.weights.weight(*k)))
        .sum();
    if total == 0 {
        return plan;
    }
    let mut x = rng.random_range(0..total);
    for k in FaultKind::ALL {
        let w = u64::from(cfg.weights.weight(k));
        if x < w {
            plan.kind = Some(k);
            break;
        }
        x -= w;
    }
    plan
}
