//! Datatraffic metrics of a cloud virtual server: the query, its checks, the model, and
//! the raw answer → [`TrafficMetrics`].

use chrono::{DateTime, FixedOffset, SecondsFormat, Utc};
use hostapi_raw_cloud::types as raw;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;

use crate::Error;
use crate::model::macros::open_enum;
use crate::model::{DataUnit, Extra};
use crate::wire::{self, At, FieldError};

open_enum! {
    /// The width of one value's bucket in a metrics answer.
    Granularity {
        /// `NONE`: no buckets, one value for the whole interval.
        None = "NONE" => "none",
        /// `5MIN`: five minutes.
        FiveMinutes = "5MIN" => "5min",
        /// `HOUR`.
        Hour = "HOUR" => "hour",
        /// `DAY`.
        Day = "DAY" => "day",
        /// `MONTH`.
        Month = "MONTH" => "month",
        /// `YEAR`.
        Year = "YEAR" => "year",
    }
}

open_enum! {
    /// How the values in a bucket are combined.
    Aggregation {
        /// `SUM`: the total (the only aggregation the docs allow).
        Sum = "SUM" => "sum",
    }
}

/// What datatraffic to read: the interval `[from, to)` — `from` inclusive, `to`
/// exclusive, sent as RFC 3339 in UTC — the bucket width, and the aggregation.
///
/// ```
/// use chrono::{TimeZone, Utc};
/// use hostapi::{Granularity, MetricsQuery};
/// let query = MetricsQuery::new(
///     Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).unwrap(),
///     Utc.with_ymd_and_hms(2024, 2, 1, 0, 0, 0).unwrap(),
/// )
/// .granularity(Granularity::Day);
/// # let _ = query;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricsQuery {
    /// The start of the interval, inclusive.
    pub from: DateTime<Utc>,
    /// The end of the interval, exclusive; must be after `from`.
    pub to: DateTime<Utc>,
    /// The bucket width; `None` sends none and lets the service choose (its default is
    /// not documented).
    pub granularity: Option<Granularity>,
    /// The aggregation (mandatory on the wire; SUM, the only one documented).
    pub aggregation: Aggregation,
}

impl MetricsQuery {
    /// The traffic of `[from, to)`, summed, at the service's default granularity.
    pub fn new(from: impl Into<DateTime<Utc>>, to: impl Into<DateTime<Utc>>) -> Self {
        Self {
            from: from.into(),
            to: to.into(),
            granularity: None,
            aggregation: Aggregation::Sum,
        }
    }

    /// The traffic of `[from, to)` given as RFC 3339 text (`2024-01-01T00:00:00Z`,
    /// `2024-01-01T01:00:00+01:00`), summed, at the service's default granularity.
    /// Fails with [`Error::InvalidInput`] naming `from` or `to` when it is not RFC 3339.
    pub fn parse(from: &str, to: &str) -> Result<Self, Error> {
        let read = |argument: &str, text: &str| {
            DateTime::parse_from_rfc3339(text.trim()).map_err(|e| {
                Error::invalid(
                    argument,
                    format!(
                        "`{}` is not an RFC 3339 date-time like 2024-01-01T00:00:00Z: {e}",
                        text.escape_debug()
                    ),
                )
            })
        };
        Ok(Self::new(read("from", from)?, read("to", to)?))
    }

    /// The bucket width.
    pub fn granularity(mut self, granularity: Granularity) -> Self {
        self.granularity = Some(granularity);
        self
    }

    /// The aggregation (SUM is the default and the only one the docs allow).
    pub fn aggregation(mut self, aggregation: Aggregation) -> Self {
        self.aggregation = aggregation;
        self
    }
}

/// The query as it goes on the wire, once checked.
pub(crate) struct WireQuery {
    pub(crate) from: String,
    pub(crate) to: String,
    pub(crate) granularity: Option<String>,
    pub(crate) aggregation: String,
}

/// Checks a query: `from` before `to`, and a granularity and an aggregation the docs
/// allow (a value outside the documented lists is refused rather than sent).
pub(crate) fn check(query: &MetricsQuery) -> Result<WireQuery, Error> {
    if query.from >= query.to {
        return Err(Error::invalid(
            "to",
            format!(
                "must be after from ({} is not after {}; from is inclusive, to exclusive)",
                rfc3339(&query.to),
                rfc3339(&query.from)
            ),
        ));
    }
    if let Some(Granularity::Unknown(value)) = &query.granularity {
        return Err(Error::invalid(
            "granularity",
            format!("`{value}` is not one of NONE, 5MIN, HOUR, DAY, MONTH, YEAR"),
        ));
    }
    if let Aggregation::Unknown(value) = &query.aggregation {
        return Err(Error::invalid(
            "aggregation",
            format!("`{value}` is not SUM, the only aggregation the API allows"),
        ));
    }
    Ok(WireQuery {
        from: rfc3339(&query.from),
        to: rfc3339(&query.to),
        granularity: query.granularity.as_ref().map(|g| g.as_wire().to_owned()),
        aggregation: query.aggregation.as_wire().to_owned(),
    })
}

fn rfc3339(time: &DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// The datatraffic of a cloud virtual server over an interval.
///
/// The wire's `DATATRAFFIC_UP` is traffic **out** of the server (`outgoing`),
/// `DATATRAFFIC_DOWN` traffic **into** it (`incoming`). Values are in bytes whatever
/// unit the series is given in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TrafficMetrics {
    /// The start of the interval, inclusive (from the answer; the query's when the
    /// answer does not say).
    pub from: DateTime<FixedOffset>,
    /// The end of the interval, exclusive (likewise).
    pub to: DateTime<FixedOffset>,
    /// The bucket width applied; `None` when neither the answer nor the query says.
    pub granularity: Option<Granularity>,
    /// The aggregation applied (the answer's, else the query's).
    pub aggregation: Aggregation,
    /// Outgoing traffic (`DATATRAFFIC_UP`); empty when the answer has no such series.
    pub outgoing: TrafficSeries,
    /// Incoming traffic (`DATATRAFFIC_DOWN`); empty when the answer has no such series.
    pub incoming: TrafficSeries,
    /// Fields the model does not name: those of `_metadata` as `_metadata.<name>`, other
    /// series as `metrics.<name>`, the rest as sent.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One direction of traffic: a value per bucket.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TrafficSeries {
    /// The values, in the order sent (by bucket start).
    pub values: Vec<TrafficValue>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl TrafficSeries {
    /// The bytes of all buckets together.
    pub fn total_bytes(&self) -> Decimal {
        self.values.iter().map(|v| v.bytes).sum()
    }
}

/// The traffic of one bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct TrafficValue {
    /// The start of the bucket.
    pub timestamp: DateTime<FixedOffset>,
    /// The traffic, in bytes (exact; converted from the series' unit when that is not
    /// `B`).
    #[schemars(with = "String")]
    #[serde(with = "rust_decimal::serde::str")]
    pub bytes: Decimal,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The raw answer → [`TrafficMetrics`]; what the answer leaves out of `_metadata` comes
/// from the query.
pub(crate) fn metrics(
    raw: raw::DatatrafficMetrics,
    query: &MetricsQuery,
) -> Result<TrafficMetrics, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let utc = FixedOffset::east_opt(0).expect("UTC is an offset");
    let (meta_from, meta_to, meta_granularity, meta_aggregation) = match raw.metadata {
        Some(meta) => {
            prefixed(&mut extra, "_metadata", meta.extra);
            (meta.from, meta.to, meta.granularity, meta.aggregation)
        }
        None => (None, None, None, None),
    };
    let from = wire::optional(meta_from, wire::offset_date_time)
        .at("from")
        .at("_metadata")?
        .unwrap_or_else(|| query.from.with_timezone(&utc));
    let to = wire::optional(meta_to, wire::offset_date_time)
        .at("to")
        .at("_metadata")?
        .unwrap_or_else(|| query.to.with_timezone(&utc));
    let granularity = wire::non_empty(meta_granularity)
        .map(|g| Granularity::from_wire(&g))
        .or_else(|| query.granularity.clone());
    let aggregation = wire::non_empty(meta_aggregation)
        .map_or_else(|| query.aggregation.clone(), |a| Aggregation::from_wire(&a));
    let (up, down) = match raw.metrics {
        Some(set) => {
            prefixed(&mut extra, "metrics", set.extra);
            (set.datatraffic_up, set.datatraffic_down)
        }
        None => (None, None),
    };
    let outgoing = up
        .map(series)
        .transpose()
        .at("DATATRAFFIC_UP")
        .at("metrics")?
        .unwrap_or_default();
    let incoming = down
        .map(series)
        .transpose()
        .at("DATATRAFFIC_DOWN")
        .at("metrics")?
        .unwrap_or_default();
    Ok(TrafficMetrics {
        from,
        to,
        granularity,
        aggregation,
        outgoing,
        incoming,
        extra,
    })
}

fn prefixed(
    extra: &mut Extra,
    prefix: &str,
    leftovers: serde_json::Map<String, serde_json::Value>,
) {
    extra.extend(
        leftovers
            .into_iter()
            .map(|(key, value)| (format!("{prefix}.{key}"), value)),
    );
}

/// One series: values to bytes by the series' unit (`B` when the answer gives none, as
/// in the docs' sample). A unit that is not a known data unit cannot be converted and
/// is refused rather than guessed.
fn series(raw: raw::MetricSeries) -> Result<TrafficSeries, FieldError> {
    let unit = wire::non_empty(raw.unit).map_or(DataUnit::Bytes, |u| wire::data_unit(&u));
    let factor = unit.bytes().map(Decimal::from).ok_or_else(|| {
        FieldError::new(format!(
            "`{}` is not a data unit (B, KB, MB, GB, TB, PB)",
            unit.as_wire()
        ))
        .at("unit")
    })?;
    let values = wire::each(raw.values, |value| {
        let timestamp = wire::non_empty(value.timestamp)
            .ok_or_else(|| FieldError::missing().at("timestamp"))?;
        let timestamp = wire::offset_date_time(&timestamp).at("timestamp")?;
        let amount = wire::required(value.value, "value")?;
        let amount = wire::decimal_from_f64(amount).at("value")?;
        let bytes = amount
            .checked_mul(factor)
            .ok_or_else(|| FieldError::new("too large to count in bytes").at("value"))?;
        Ok(TrafficValue {
            timestamp,
            bytes,
            extra: wire::extra(value.extra),
        })
    })
    .at("values")?;
    Ok(TrafficSeries {
        values,
        extra: wire::extra(raw.extra),
    })
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn query() -> MetricsQuery {
        MetricsQuery::new(
            Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(2024, 1, 2, 0, 0, 0).unwrap(),
        )
    }

    #[test]
    fn queries_are_checked() {
        let wire = check(&query().granularity(Granularity::FiveMinutes)).unwrap();
        assert_eq!(wire.from, "2024-01-01T00:00:00Z");
        assert_eq!(wire.granularity.as_deref(), Some("5MIN"));
        assert_eq!(wire.aggregation, "SUM");
        let backwards = MetricsQuery::new(query().to, query().from);
        assert!(
            matches!(check(&backwards), Err(Error::InvalidInput { ref argument, .. }) if argument == "to")
        );
        let empty = MetricsQuery::new(query().from, query().from);
        assert!(check(&empty).is_err());
        let odd = query().granularity(Granularity::from_wire("WEEK"));
        assert!(
            matches!(check(&odd), Err(Error::InvalidInput { ref argument, .. }) if argument == "granularity")
        );
        let odd = query().aggregation(Aggregation::from_wire("AVG"));
        assert!(
            matches!(check(&odd), Err(Error::InvalidInput { ref argument, .. }) if argument == "aggregation")
        );
    }

    #[test]
    fn values_become_bytes_and_unknown_units_are_refused() {
        let raw: raw::DatatrafficMetrics = serde_json::from_value(serde_json::json!({
            "metrics": {
                "DATATRAFFIC_UP": {"unit": "KB", "values": [{"timestamp": "2024-01-01T00:00:00Z", "value": 1.5}]},
            }
        }))
        .unwrap();
        let m = metrics(raw, &query()).unwrap();
        assert_eq!(m.outgoing.values[0].bytes.to_string(), "1500.0");
        assert!(m.incoming.values.is_empty());
        assert_eq!(m.from.to_rfc3339(), "2024-01-01T00:00:00+00:00");
        let raw: raw::DatatrafficMetrics = serde_json::from_value(serde_json::json!({
            "metrics": {"DATATRAFFIC_DOWN": {"unit": "packets", "values": []}}
        }))
        .unwrap();
        assert_eq!(
            metrics(raw, &query()).unwrap_err().path(),
            "metrics.DATATRAFFIC_DOWN.unit"
        );
    }
}
