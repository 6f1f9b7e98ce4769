//! Datatraffic metrics of a cloud virtual server: the query, its checks, the model, and
//! the raw answer → [`TrafficMetrics`].

use chrono::{DateTime, FixedOffset, Offset, SecondsFormat, Utc};
use rust_decimal::Decimal;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::model::Extra;
use crate::model::macros::open_enum;
use crate::read::shapes::prefixed;
use crate::read::text;
use crate::read::{Cursor, FieldError, Fields, Json};

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
/// use hostapi::cloud::{Granularity, MetricsQuery};
/// let query = MetricsQuery::new(
///     Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).unwrap(),
///     Utc.with_ymd_and_hms(2024, 2, 1, 0, 0, 0).unwrap(),
/// )
/// .granularity(Granularity::Day);
/// # let _ = query;
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
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
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One direction of traffic: a value per bucket.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct TrafficSeries {
    /// The values, in the order sent (by bucket start).
    pub values: Vec<TrafficValue>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl TrafficSeries {
    /// The bytes of all buckets together; `None` if the sum does not fit a decimal.
    pub fn total_bytes(&self) -> Option<Decimal> {
        self.values
            .iter()
            .try_fold(Decimal::ZERO, |sum, v| sum.checked_add(v.bytes))
    }
}

/// The traffic of one bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct TrafficValue {
    /// The start of the bucket.
    pub timestamp: DateTime<FixedOffset>,
    /// The traffic, in bytes (exact; converted from the series' unit when that is not
    /// `B`).
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    #[serde(with = "rust_decimal::serde::str")]
    pub bytes: Decimal,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// `{_metadata, metrics}` → the metrics; what `_metadata` does not say is taken from
/// the query asked.
pub(crate) fn metrics(
    query: &MetricsQuery,
) -> impl Fn(&mut Cursor, Json<'_>) -> Result<TrafficMetrics, FieldError> + '_ {
    move |cursor, body| {
        cursor.object(body, |f| {
            let utc = Utc.fix();
            let meta = f.object("_metadata", |m| {
                (
                    m.parsed("from", text::offset_date_time),
                    m.parsed("to", text::offset_date_time),
                    m.open_enum("granularity", Granularity::from_wire),
                    m.open_enum("aggregation", Aggregation::from_wire),
                    m.unread(),
                )
            });
            let series = f.object("metrics", |m| {
                (
                    m.object("DATATRAFFIC_UP", series),
                    m.object("DATATRAFFIC_DOWN", series),
                    m.unread(),
                )
            });
            let mut metrics = TrafficMetrics {
                from: query.from.with_timezone(&utc),
                to: query.to.with_timezone(&utc),
                granularity: query.granularity.clone(),
                aggregation: query.aggregation.clone(),
                outgoing: TrafficSeries::default(),
                incoming: TrafficSeries::default(),
                extra: f.unread(),
            };
            if let Some((from, to, granularity, aggregation, rest)) = meta {
                metrics.from = from.unwrap_or(metrics.from);
                metrics.to = to.unwrap_or(metrics.to);
                metrics.granularity = granularity.or(metrics.granularity);
                metrics.aggregation = aggregation.unwrap_or(metrics.aggregation);
                metrics.extra.extend(prefixed("_metadata", rest));
            }
            if let Some((up, down, rest)) = series {
                metrics.outgoing = up.unwrap_or_default();
                metrics.incoming = down.unwrap_or_default();
                metrics.extra.extend(prefixed("metrics", rest));
            }
            Ok(metrics)
        })
    }
}

/// A series: its unit (bytes when none is given) and values. A unit that is not a data
/// unit leaves the values unread (kept in `extra`), with a warning: counting them in
/// bytes would be a guess.
fn series(f: &mut Fields<'_, '_>) -> TrafficSeries {
    let unit = f.text("unit");
    let factor = match unit.as_deref().map(text::data_unit) {
        None => Some(Decimal::ONE),
        Some(unit) => unit.bytes(),
    };
    let values = match factor {
        Some(factor) => f.objects("values", |v| value(v, factor)),
        None => {
            if let Some(unit) = unit {
                f.unreadable(
                    "unit",
                    Json::String(unit.clone().into()),
                    format!("`{unit}` is not a data unit; the values are kept as sent"),
                );
            }
            Vec::new()
        }
    };
    TrafficSeries {
        values,
        extra: f.unread(),
    }
}

/// One data point: its timestamp and value identify it.
fn value(f: &mut Fields<'_, '_>, factor: Decimal) -> Result<TrafficValue, FieldError> {
    let Some(timestamp) = f.parsed("timestamp", text::offset_date_time) else {
        return Err(f
            .cursor()
            .error("timestamp", "the point's timestamp is absent or unreadable"));
    };
    let Some(amount) = f.decimal("value") else {
        return Err(f
            .cursor()
            .error("value", "the point's value is absent or unreadable"));
    };
    let bytes = amount
        .checked_mul(factor)
        .ok_or_else(|| {
            f.cursor()
                .error("value", format!("{amount} is too large to count in bytes"))
        })?
        .normalize();
    Ok(TrafficValue {
        timestamp,
        bytes,
        extra: f.unread(),
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

    fn read(body: &str) -> (TrafficMetrics, Vec<crate::read::fields::Warning>) {
        let mut cursor = Cursor::default();
        let query = query();
        let metrics = metrics(&query)(
            &mut cursor,
            crate::read::json::parse(body.as_bytes()).unwrap(),
        )
        .unwrap();
        (metrics, cursor.take_warnings())
    }

    #[test]
    fn values_become_bytes_and_unknown_units_are_kept_unread() {
        let (m, _) = read(
            r#"{"metrics": {"DATATRAFFIC_UP": {"unit": "KB", "values": [{"timestamp": "2024-01-01T00:00:00Z", "value": 1.5}]}}}"#,
        );
        assert_eq!(m.outgoing.values[0].bytes.to_string(), "1500");
        assert!(m.incoming.values.is_empty());
        assert_eq!(m.from.to_rfc3339(), "2024-01-01T00:00:00+00:00");
        let (m, warnings) = read(
            r#"{"metrics": {"DATATRAFFIC_DOWN": {"unit": "packets", "values": [{"timestamp": "2024-01-01T00:00:00Z", "value": 3}]}}}"#,
        );
        assert!(m.incoming.values.is_empty());
        assert_eq!(warnings[0].path, "metrics.DATATRAFFIC_DOWN.unit");
        assert!(
            m.incoming.extra.contains_key("values"),
            "the values are kept"
        );
    }

    #[test]
    fn totals_never_overflow() {
        let (m, _) = read(
            r#"{"metrics": {"DATATRAFFIC_UP": {"unit": "B", "values": [
                {"timestamp": "2024-01-01T00:00:00Z", "value": "50000000000000000000000000000"},
                {"timestamp": "2024-01-01T01:00:00Z", "value": "50000000000000000000000000000"}]}}}"#,
        );
        assert_eq!(m.outgoing.values.len(), 2, "both points read");
        assert_eq!(m.outgoing.total_bytes(), None);
    }
}
