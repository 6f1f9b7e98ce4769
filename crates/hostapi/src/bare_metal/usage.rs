//! Network usage of a bare metal server (quirk 9): bandwidth and data traffic over an
//! interval, as JSON (figures with units, per switch port) or as PNG graphs.

use chrono::NaiveDate;
use hostapi_raw_infra::types as raw;
use reqwest::header::{ACCEPT, HeaderValue};
use schemars::JsonSchema;
use serde::Serialize;

use super::BareMetals;
use super::install::checked_id;
use super::normalize::integer_id;
use crate::model::{BareMetalId, BitRate, DataSize, Extra};
use crate::wire::{self, At, FieldError};
use crate::{Error, transport};

/// Bandwidth and data traffic of a bare metal server over an interval (the combined
/// view, `GET /v1/bareMetals/{id}/networkUsage`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BareMetalNetworkUsage {
    /// Bandwidth.
    pub bandwidth: Option<BandwidthUsage>,
    /// Data traffic (sent as `dataTraffic` in this view; `datatraffic` is read too).
    pub data_traffic: Option<DataTrafficUsage>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// Bandwidth usage: every figure is a rate ("11 Mbps").
pub type BandwidthUsage = UsageReport<BitRate>;

/// Data traffic usage: every figure is an amount of data ("1100.50 GB").
pub type DataTrafficUsage = UsageReport<DataSize>;

/// Usage of one kind (bandwidth or data traffic) over an interval. `Q` is the kind of
/// figure: [`BitRate`] for bandwidth, [`DataSize`] for data traffic. A unit the model
/// does not know is kept (as the unit's `Unknown` value), never refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UsageReport<Q> {
    /// The server's id.
    pub server_id: Option<BareMetalId>,
    /// The server's name.
    pub server_name: Option<String>,
    /// The interval measured.
    pub interval: Option<UsageInterval>,
    /// The total over all ports (`measurement.total`).
    pub total: Option<Q>,
    /// The average (`measurement.average`; bandwidth only).
    pub average: Option<Q>,
    /// The usage per measured switch port (`measurement.node`), whichever shape the
    /// wire used: one port's figures, an array of them, or an object keyed by port.
    pub ports: Vec<PortUsage<Q>>,
    /// Usage above the contract's threshold.
    pub overusage: Option<Q>,
    /// The contract's monthly threshold.
    pub monthly_threshold: Option<Q>,
    /// Fields the model does not name (those of `measurement` and `interval` under
    /// `measurement.<key>` and `interval.<key>`).
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The usage measured on one switch port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PortUsage<Q> {
    /// The port, when the wire names it (the key of a per-port object, or a `port`
    /// or `name` field of an array entry).
    pub port: Option<String>,
    /// Incoming (`in`).
    pub incoming: Option<Q>,
    /// Outgoing (`out`).
    pub outgoing: Option<Q>,
    /// Both ways (`total`).
    pub total: Option<Q>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The interval a usage report covers (`DD-MM-YYYY` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct UsageInterval {
    /// The first day.
    pub from: Option<NaiveDate>,
    /// The last day.
    pub to: Option<NaiveDate>,
}

/// The first bytes of every PNG file.
const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// The query form of a usage date.
fn query_date(date: NaiveDate) -> String {
    date.format("%d-%m-%Y").to_string()
}

/// Checks the interval and gives its query form.
fn interval_query(from: NaiveDate, to: NaiveDate) -> Result<(String, String), Error> {
    if from > to {
        return Err(Error::invalid(
            "from",
            format!("{from} is after to ({to}): the interval would be empty"),
        ));
    }
    Ok((query_date(from), query_date(to)))
}

impl BareMetals<'_> {
    /// Reads bandwidth and data traffic from `from` to `to` (days, sent as
    /// `dateFrom`/`dateTo` in `DD-MM-YYYY`; `from` after `to` is refused before
    /// sending).
    pub async fn network_usage(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<BareMetalNetworkUsage, Error> {
        let id = checked_id(id)?;
        let (from, to) = interval_query(from, to)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_network_usage()
            .bare_metal_id(id)
            .date_from(from)
            .date_to(to)
            .send();
        self.handle
            .json("getBareMetalNetworkUsage", call)
            .await?
            .normalize(combined)
    }

    /// Reads bandwidth from `from` to `to` as figures (checked as for
    /// [`network_usage`](Self::network_usage)).
    pub async fn bandwidth(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<BandwidthUsage, Error> {
        let id = checked_id(id)?;
        let (from, to) = interval_query(from, to)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_bandwidth_usage()
            .bare_metal_id(id)
            .date_from(from)
            .date_to(to)
            .send();
        self.handle
            .json("getBareMetalBandwidthUsage", call)
            .await?
            .normalize(bandwidth_answer)
    }

    /// Reads data traffic from `from` to `to` as figures (checked as for
    /// [`network_usage`](Self::network_usage)). The answer's key is `datatraffic` in
    /// this view; `dataTraffic` is read too.
    pub async fn data_traffic(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<DataTrafficUsage, Error> {
        let id = checked_id(id)?;
        let (from, to) = interval_query(from, to)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_data_traffic_usage()
            .bare_metal_id(id)
            .date_from(from)
            .date_to(to)
            .send();
        self.handle
            .json("getBareMetalDataTrafficUsage", call)
            .await?
            .normalize(data_traffic_answer)
    }

    /// The bandwidth graph from `from` to `to`, as PNG bytes (the same resource asked
    /// with `Accept: image/png`; a call written by hand, as the generated client only
    /// reads JSON). An answer that is not a PNG image is an [`Error::Decode`].
    pub async fn bandwidth_png(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<u8>, Error> {
        self.png(id, from, to, "bandwidth", "getBareMetalBandwidthUsage")
            .await
    }

    /// The data traffic graph from `from` to `to`, as PNG bytes (see
    /// [`bandwidth_png`](Self::bandwidth_png)).
    pub async fn data_traffic_png(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<u8>, Error> {
        self.png(id, from, to, "datatraffic", "getBareMetalDataTrafficUsage")
            .await
    }

    async fn png(
        &self,
        id: &BareMetalId,
        from: NaiveDate,
        to: NaiveDate,
        view: &str,
        operation: &'static str,
    ) -> Result<Vec<u8>, Error> {
        let id = checked_id(id)?;
        let (from, to) = interval_query(from, to)?;
        let url = format!(
            "{}/v1/bareMetals/{}/networkUsage/{view}",
            progenitor_client::ClientInfo::baseurl(self.handle.infra()),
            progenitor_client::encode_path(id)
        );
        let inner = &self.handle.client.inner;
        let request = inner
            .http
            .get(url)
            .query(&[("dateFrom", from), ("dateTo", to)])
            .header(ACCEPT, HeaderValue::from_static("image/png"))
            .build()
            .map_err(|e| Error::invalid("id", format!("cannot form a request URL: {e}")))?;
        let answer = transport::raw(
            operation,
            self.handle.options,
            &inner.api_hooks,
            &inner.http,
            request,
        )
        .await?;
        if answer.bytes.starts_with(&PNG_SIGNATURE) {
            return Ok(answer.bytes.to_vec());
        }
        let found = match answer.content_type.as_deref() {
            Some(kind) => format!("`{kind}` content"),
            None => "content without a type".to_owned(),
        };
        let empty = if answer.bytes.is_empty() {
            " (empty)"
        } else {
            ""
        };
        Err(Error::Decode {
            operation,
            path: String::new(),
            message: format!(
                "expected a PNG image, found {found}{empty} that does not start with the PNG signature"
            ),
            body: String::from_utf8_lossy(&answer.bytes).into_owned(),
        })
    }
}

/// The bandwidth answer: `{bandwidth:{…}}` → the report in bit rates.
pub(crate) fn bandwidth_answer(raw: raw::BandwidthUsage) -> Result<BandwidthUsage, FieldError> {
    let mut usage = report(raw.bandwidth, wire::bit_rate).at("bandwidth")?;
    usage.extra.extend(wire::extra(raw.extra));
    Ok(usage)
}

/// The data traffic answer: `{datatraffic:{…}}` (or `dataTraffic`) → the report in
/// data sizes.
pub(crate) fn data_traffic_answer(
    raw: raw::DataTrafficUsage,
) -> Result<DataTrafficUsage, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let (record, key) = either_spelling(
        raw.datatraffic,
        "datatraffic",
        raw.data_traffic,
        "dataTraffic",
        &mut extra,
    )?;
    let record = record.ok_or_else(|| FieldError::missing().at("datatraffic"))?;
    let mut usage = report(record, wire::data_size).at(key)?;
    usage.extra.extend(extra);
    Ok(usage)
}

/// Picks the record under the documented key, or under the other spelling. When both
/// are sent, the first one wins and the other is kept in `extra` as sent.
pub(crate) fn either_spelling(
    first: Option<raw::NetworkUsageRecord>,
    first_key: &'static str,
    second: Option<raw::NetworkUsageRecord>,
    second_key: &'static str,
    extra: &mut Extra,
) -> Result<(Option<raw::NetworkUsageRecord>, &'static str), FieldError> {
    match (first, second) {
        (Some(first), Some(second)) => {
            let kept = serde_json::to_value(second)
                .map_err(|e| FieldError::new(e.to_string()).at(second_key))?;
            extra.insert(second_key.to_owned(), kept);
            Ok((Some(first), first_key))
        }
        (Some(first), None) => Ok((Some(first), first_key)),
        (None, Some(second)) => Ok((Some(second), second_key)),
        (None, None) => Ok((None, first_key)),
    }
}

/// `{bandwidth, dataTraffic}` → the combined view.
pub(crate) fn combined(raw: raw::NetworkUsage) -> Result<BareMetalNetworkUsage, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let (traffic, key) = either_spelling(
        raw.data_traffic,
        "dataTraffic",
        raw.datatraffic,
        "datatraffic",
        &mut extra,
    )?;
    Ok(BareMetalNetworkUsage {
        bandwidth: raw
            .bandwidth
            .map(|r| report(r, wire::bit_rate))
            .transpose()
            .at("bandwidth")?,
        data_traffic: traffic
            .map(|r| report(r, wire::data_size))
            .transpose()
            .at(key)?,
        extra,
    })
}

pub(crate) type Reader<Q> = fn(&str) -> Result<Q, FieldError>;

fn figure<Q>(
    value: Option<String>,
    read: Reader<Q>,
    key: &'static str,
) -> Result<Option<Q>, FieldError> {
    wire::optional(value, read).at(key)
}

fn prefixed(map: serde_json::Map<String, serde_json::Value>, prefix: &str) -> Extra {
    map.into_iter()
        .map(|(k, v)| (format!("{prefix}.{k}"), v))
        .collect()
}

pub(crate) fn report<Q>(
    raw: raw::NetworkUsageRecord,
    read: Reader<Q>,
) -> Result<UsageReport<Q>, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let (total, average, ports) = match raw.measurement {
        Some(measurement) => {
            extra.extend(prefixed(measurement.extra, "measurement"));
            let total = figure(measurement.total, read, "total").at("measurement")?;
            let average = figure(measurement.average, read, "average").at("measurement")?;
            let ports = measurement
                .node
                .map(|nodes| ports(nodes, read))
                .transpose()
                .at("node")
                .at("measurement")?
                .unwrap_or_default();
            (total, average, ports)
        }
        None => (None, None, Vec::new()),
    };
    let interval = match raw.interval {
        Some(interval) => {
            extra.extend(prefixed(interval.extra, "interval"));
            Some(UsageInterval {
                from: wire::optional(interval.from, wire::any_date)
                    .at("from")
                    .at("interval")?,
                to: wire::optional(interval.to, wire::any_date)
                    .at("to")
                    .at("interval")?,
            })
        }
        None => None,
    };
    Ok(UsageReport {
        server_id: integer_id(raw.server_id),
        server_name: wire::non_empty(raw.server_name),
        interval,
        total,
        average,
        ports,
        overusage: figure(raw.overusage, read, "overusage")?,
        monthly_threshold: figure(raw.monthly_threshold, read, "monthlyThreshold")?,
        extra,
    })
}

/// The per-port node in each shape the spec allows: one port's figures, an array of
/// them, or an object keyed by port.
fn ports<Q>(raw: raw::NetworkUsageNodes, read: Reader<Q>) -> Result<Vec<PortUsage<Q>>, FieldError> {
    match raw {
        raw::NetworkUsageNodes::Node(node) => Ok(vec![port(None, node, read)?]),
        raw::NetworkUsageNodes::PortList(list) => wire::each(list.0, |mut node| {
            let name = ["port", "name"]
                .iter()
                .find_map(|key| node.extra.shift_remove(*key))
                .map(|value| match value {
                    raw::NetworkUsageNodeExtraValue::String(text) => text,
                    other => scalar(other).to_string(),
                });
            port(name, node, read)
        }),
        raw::NetworkUsageNodes::PortMap(map) => map
            .0
            .into_iter()
            .map(|(name, node)| port(Some(name.clone()), node, read).at(name))
            .collect(),
    }
}

fn port<Q>(
    name: Option<String>,
    raw: raw::NetworkUsageNode,
    read: Reader<Q>,
) -> Result<PortUsage<Q>, FieldError> {
    Ok(PortUsage {
        port: wire::non_empty(name),
        incoming: figure(raw.in_, read, "in")?,
        outgoing: figure(raw.out, read, "out")?,
        total: figure(raw.total, read, "total")?,
        // The spec keeps a port's other fields to scalars (so a single port cannot be
        // mistaken for a map of ports).
        extra: raw.extra.into_iter().map(|(k, v)| (k, scalar(v))).collect(),
    })
}

/// A port's scalar field back as JSON; whole numbers stay integers (the generated type
/// reads every number as `f64`).
fn scalar(value: raw::NetworkUsageNodeExtraValue) -> serde_json::Value {
    match value {
        raw::NetworkUsageNodeExtraValue::String(text) => serde_json::Value::String(text),
        raw::NetworkUsageNodeExtraValue::Boolean(flag) => serde_json::Value::Bool(flag),
        raw::NetworkUsageNodeExtraValue::Number(number) => {
            #[allow(clippy::cast_possible_truncation)]
            let whole = number as i64;
            #[allow(clippy::cast_precision_loss)]
            if number.fract() == 0.0 && (whole as f64) == number {
                serde_json::Value::from(whole)
            } else {
                serde_json::Number::from_f64(number)
                    .map_or(serde_json::Value::Null, serde_json::Value::Number)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_dates_are_day_month_year_and_ordered() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(
            interval_query(day(2024, 1, 5), day(2024, 2, 29)).unwrap(),
            ("05-01-2024".to_owned(), "29-02-2024".to_owned())
        );
        assert!(interval_query(day(2024, 1, 1), day(2024, 1, 1)).is_ok());
        match interval_query(day(2024, 2, 1), day(2024, 1, 1)).unwrap_err() {
            Error::InvalidInput { argument, .. } => assert_eq!(argument, "from"),
            other => panic!("{other}"),
        }
    }
}
