//! Bad input is refused before anything is sent: for every write (and the reads that
//! take the same kinds of arguments), each invalid argument a caller can pass gives
//! `Error::InvalidInput` naming that argument, and the mock server behind the client
//! sees no request at all.

use std::future::Future;
use std::pin::Pin;

use chrono::NaiveDate;
use std::net::IpAddr;

use hostapi::bare_metal::{InstallPartition, InstallRequest, NewDhcpLease, PartitionLayout};
use hostapi::cdn::{NewOrigin, OriginUpdate, SubCustomerUpdate};
use hostapi::client::RetryPolicy;
use hostapi::cloud::MetricsQuery;
use hostapi::domains::{DnsRecordType, NewDnsRecord};
use hostapi::ips::IpUpdate;
use hostapi::types::{
    BareMetalId, CloudServerId, DnsRecordId, DomainName, MacAddress, OperatingSystemId,
    PrivateNetworkId, PrivateRackId, Username, VirtualServerId, ZoneId,
};
use hostapi::{Client, Error};
use hostapi_tests::{API_KEY, CDN_SECRET, client};
use httpmock::MockServer;

type Call<'a> = Pin<Box<dyn Future<Output = Result<(), Error>> + 'a>>;

/// One row: what is wrong, the argument the error must name, and the call.
struct Case<'a> {
    what: &'static str,
    argument: &'static str,
    call: Call<'a>,
}

macro_rules! case {
    ($what:literal, $argument:literal, $call:expr) => {
        Case {
            what: $what,
            argument: $argument,
            call: Box::pin(async move { $call.await.map(|_| ()) }),
        }
    };
}

fn bm() -> BareMetalId {
    BareMetalId::from(20001u32)
}

fn date(day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2024, 3, day).unwrap()
}

/// A layout with a root partition, changed by `f`.
fn layout(f: impl FnOnce(PartitionLayout) -> PartitionLayout) -> InstallRequest {
    InstallRequest::new(OperatingSystemId::from(867u32)).hdd(f(PartitionLayout::new("/dev/sda")))
}

fn ip(value: &str) -> IpAddr {
    value.parse().expect("a valid IP address")
}

fn domain(value: &str) -> DomainName {
    DomainName::new(value).expect("a valid domain name")
}

/// What the calls borrow.
struct Fixtures {
    records: hostapi::domains::DnsRecords,
    cloud: CloudServerId,
    zone: ZoneId,
}

fn cases<'a>(client: &'a Client, fixtures: &'a Fixtures) -> Vec<Case<'a>> {
    let records = &fixtures.records;
    let cloud = &fixtures.cloud;
    let zone = &fixtures.zone;
    let root = || InstallPartition::rest("ext4").mountpoint("/");
    let mut blank_boot_file = NewDhcpLease::new(
        "http://boot.example.com/pxe",
        ip("192.0.2.9"),
        ip("192.0.2.53"),
    );
    blank_boot_file.boot_file_name = "  ".into();
    // IP addresses are `IpAddr`s (and MAC addresses, domain names and user names their
    // own checked types): an address that is no address cannot be passed at all, so
    // the rows for "300.1.1.1", "192.0.2", "::g" and lease servers that are no IPs are
    // gone. What those types check is refused by name when they are made.
    vec![
        case!(
            "reverse DNS name not a host name",
            "reverse_dns",
            client
                .ips()
                .update(ip("192.0.2.1"), &IpUpdate::ReverseDns("not a host".into()))
        ),
        case!(
            "reverse DNS name of a bare metal IP not a host name",
            "reverse_dns",
            client.bare_metals().ips(&bm()).update(
                ip("192.0.2.10"),
                &IpUpdate::ReverseDns("under_score host".into())
            )
        ),
        case!(
            "reverse DNS name of a rack IP not a host name",
            "reverse_dns",
            client
                .private_racks()
                .ips(&PrivateRackId::from(7001u32))
                .update(ip("2001:db8::1"), &IpUpdate::ReverseDns("a..b".into()))
        ),
        case!(
            "lease boot file blank",
            "boot_file_name",
            client.bare_metals().leases(&bm()).create(&blank_boot_file)
        ),
        case!(
            "A record holding a name",
            "content",
            records.create(&NewDnsRecord::new("www", DnsRecordType::A, "example.com"))
        ),
        case!(
            "AAAA record holding an IPv4",
            "content",
            records.create(&NewDnsRecord::new("www", DnsRecordType::Aaaa, "192.0.2.1"))
        ),
        // Bad MAC addresses.
        case!(
            "MAC too short",
            "mac",
            std::future::ready(MacAddress::new("00:1a:2b:3c:4d"))
        ),
        case!(
            "MAC not hex",
            "mac",
            std::future::ready(MacAddress::new("00:1a:2b:3c:4d:zz"))
        ),
        // TTLs: the documents give no range, and the facade enforces none (see
        // `a_ttl_is_sent_as_given`).
        // Priority only on MX and SRV.
        case!(
            "priority on an A record",
            "priority",
            records.create(&NewDnsRecord::new("www", DnsRecordType::A, "192.0.2.1").priority(10))
        ),
        case!(
            "MX without priority",
            "priority",
            records.create(&NewDnsRecord::new("@", DnsRecordType::Mx, "mx.example.com"))
        ),
        case!(
            "priority on a CNAME update",
            "priority",
            records.update(
                &DnsRecordId::new("1001").unwrap(),
                &NewDnsRecord::new("www", DnsRecordType::Cname, "example.com.").priority(5)
            )
        ),
        case!(
            "record name blank",
            "name",
            records.create(&NewDnsRecord::new(" ", DnsRecordType::Txt, "v=spf1"))
        ),
        // A DNS record id is a number by its rule: one that is not cannot be made.
        case!(
            "record id not numeric",
            "DnsRecordId",
            std::future::ready(DnsRecordId::new("abc"))
        ),
        // Install plans.
        case!(
            "layout without root",
            "hdd.partitions",
            client.bare_metals().install(
                &bm(),
                &layout(|l| l.partition(InstallPartition::rest("ext4").mountpoint("/home")))
            )
        ),
        case!(
            "layout without partitions",
            "hdd.partitions",
            client.bare_metals().install(&bm(), &layout(|l| l))
        ),
        case!(
            "two * partitions",
            "hdd.partitions[1].size",
            client.bare_metals().install(
                &bm(),
                &layout(|l| l
                    .partition(root())
                    .partition(InstallPartition::rest("xfs").mountpoint("/srv")))
            )
        ),
        case!(
            "a 0 MB partition",
            "hdd.partitions[0].size",
            client.bare_metals().install(
                &bm(),
                &layout(|l| l
                    .partition(InstallPartition::megabytes("ext4", 0).mountpoint("/boot"))
                    .partition(root()))
            )
        ),
        case!(
            "swap with a mountpoint",
            "hdd.partitions[0].mountpoint",
            client.bare_metals().install(
                &bm(),
                &layout(|l| l
                    .partition(InstallPartition::megabytes("swap", 4096).mountpoint("/swap"))
                    .partition(root()))
            )
        ),
        case!(
            "bootable index out of range",
            "hdd.bootable",
            client
                .bare_metals()
                .install(&bm(), &layout(|l| l.partition(root()).bootable(3)))
        ),
        case!(
            "disk not a device path",
            "hdd.disk",
            client.bare_metals().install(
                &bm(),
                &InstallRequest::new(OperatingSystemId::from(867u32))
                    .hdd(PartitionLayout::new("sda").partition(root()))
            )
        ),
        case!(
            "RAID 3",
            "raid_level",
            client.bare_metals().install(
                &bm(),
                &InstallRequest::new(OperatingSystemId::from(867u32)).raid(3, 4)
            )
        ),
        case!(
            "RAID 5 on two disks",
            "number_disks",
            client.bare_metals().install(
                &bm(),
                &InstallRequest::new(OperatingSystemId::from(867u32)).raid(5, 2)
            )
        ),
        case!(
            "RAID 10 on five disks",
            "number_disks",
            client.bare_metals().install(
                &bm(),
                &InstallRequest::new(OperatingSystemId::from(867u32)).raid(10, 5)
            )
        ),
        // An operating system id is a number by its rule: one that is not cannot be
        // made.
        case!(
            "operating system id not numeric",
            "OperatingSystemId",
            std::future::ready(OperatingSystemId::new("ubuntu"))
        ),
        // Purges.
        case!(
            "empty purge list",
            "paths",
            client.cdn().purge::<&str>(zone, &[])
        ),
        case!(
            "purge list containing *",
            "paths",
            client.cdn().purge(zone, &["/index.html", "*"])
        ),
        case!(
            "purge path blank",
            "paths",
            client.cdn().purge(zone, &["/a.css", ""])
        ),
        // Reversed date ranges.
        case!(
            "bare metal usage reversed",
            "from",
            client.bare_metals().network_usage(&bm(), date(9), date(2))
        ),
        case!(
            "bare metal bandwidth reversed",
            "from",
            client.bare_metals().bandwidth(&bm(), date(9), date(2))
        ),
        case!(
            "bare metal graph reversed",
            "from",
            client
                .bare_metals()
                .data_traffic_png(&bm(), date(9), date(2))
        ),
        case!(
            "rack usage reversed",
            "from",
            client
                .private_racks()
                .network_usage(&PrivateRackId::from(7001u32), date(9), date(2))
        ),
        case!(
            "cloud metrics reversed",
            "to",
            client.cloud_servers().datatraffic(
                cloud,
                &MetricsQuery::parse("2024-03-09T00:00:00Z", "2024-03-02T00:00:00Z").unwrap()
            )
        ),
        case!(
            "cloud metrics empty",
            "to",
            client.cloud_servers().datatraffic(
                cloud,
                &MetricsQuery::parse("2024-03-09T00:00:00Z", "2024-03-09T00:00:00Z").unwrap()
            )
        ),
        // Ids and names that would leave their path segment.
        case!(
            "domain with a slash",
            "domain",
            std::future::ready(DomainName::new("example.com/../x"))
        ),
        case!(
            "domain `..`",
            "domain",
            std::future::ready(DomainName::new(".."))
        ),
        case!(
            "credential user name with a slash",
            "username",
            std::future::ready(Username::new("../root"))
        ),
        case!(
            "credential user name `..`",
            "username",
            std::future::ready(Username::new(".."))
        ),
        // Numeric ids by their rules: other text cannot be made into one.
        case!(
            "network id not numeric",
            "PrivateNetworkId",
            std::future::ready(PrivateNetworkId::new("x1"))
        ),
        case!(
            "virtual server id not numeric",
            "VirtualServerId",
            std::future::ready(VirtualServerId::new("web-1"))
        ),
        // Other writes.
        case!(
            "origin label blank",
            "label",
            client
                .cdn()
                .origins()
                .create(&NewOrigin::new(" ", "https://origin.example.com"))
        ),
        case!(
            "origin URL not http",
            "url",
            client
                .cdn()
                .origins()
                .create(&NewOrigin::new("www", "ftp://origin.example.com"))
        ),
        case!(
            "origin update changing nothing",
            "update",
            client.cdn().origins().update(
                &hostapi::types::OriginId::from(101u32),
                &OriginUpdate::new()
            )
        ),
        case!(
            "sub-customer update setting nothing",
            "update",
            client.cdn().sub_customers().update(
                &hostapi::types::CustomerNumber::new("C12345601").unwrap(),
                &SubCustomerUpdate::new()
            )
        ),
        case!(
            "reference with a line break",
            "reference",
            client.bare_metals().update(&bm(), "web\n01")
        ),
        case!(
            "wait interval under the floor",
            "interval",
            client.cloud_servers().wait_state(
                cloud,
                hostapi::cloud::CloudServerState::Running,
                &hostapi::WaitOptions::new().interval(std::time::Duration::from_millis(1))
            )
        ),
    ]
}

#[tokio::test]
async fn every_bad_argument_is_refused_by_name_before_sending() {
    let server = MockServer::start_async().await;
    let anything = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(200).body("{}");
        })
        .await;
    let client = client(&server);
    let fixtures = Fixtures {
        records: client.domains().records(&domain("example.com")),
        cloud: CloudServerId::new("5d7f8262-d77f-4476-8da8-6a84f8f2ae8d").unwrap(),
        zone: ZoneId::new("1001").unwrap(),
    };
    let mut failures = Vec::new();
    let cases = cases(&client, &fixtures);
    let count = cases.len();
    for Case {
        what,
        argument,
        call,
    } in cases
    {
        match call.await {
            Err(Error::InvalidInput {
                argument: named, ..
            }) if named == argument => {}
            other => failures.push(format!(
                "{what}: expected InvalidInput({argument}), got {other:?}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(anything.calls_async().await, 0, "requests were sent");
    assert!(count >= 45, "{count} cases");
}

/// The documents give no TTL range, and the rewrite enforces none: a TTL the old
/// facade refused (under a minute, over a day) is sent as given.
#[tokio::test]
async fn a_ttl_is_sent_as_given() {
    let server = MockServer::start_async().await;
    for ttl in [59u32, 86_401] {
        let mock = server
            .mock_async(|when, then| {
                when.method(httpmock::Method::PUT)
                    .path("/v1/domains/example.com")
                    .body(format!("ttl={ttl}"));
                then.status(200).body(format!(
                    r#"{{"domain":{{"domain":"example.com","ttl":{ttl}}}}}"#
                ));
            })
            .await;
        let changed = client(&server)
            .domains()
            .set_ttl(&domain("example.com"), ttl)
            .await
            .unwrap_or_else(|e| panic!("{ttl}: {e}"));
        mock.assert_async().await;
        assert_eq!(changed.ttl, Some(ttl), "{ttl}");
    }
}

/// Ids the caller builds are checked when built: one path segment each.
#[test]
fn ids_with_a_slash_or_dots_cannot_be_built() {
    for bad in ["1/2", "..", ".", "a b", "%2e%2e", "x?y", ""] {
        for result in [
            BareMetalId::new(bad).map(drop),
            CloudServerId::new(bad).map(drop),
            ZoneId::new(bad).map(drop),
            DnsRecordId::new(bad).map(drop),
        ] {
            assert!(
                matches!(&result, Err(Error::InvalidInput { argument, .. }) if argument.ends_with("Id")),
                "{bad:?}: {result:?}"
            );
        }
    }
}

/// A change to a builder.
type Setting = fn(hostapi::ClientBuilder) -> hostapi::ClientBuilder;

/// What the builder refuses: nothing is built, so nothing can be sent.
#[tokio::test]
async fn bad_settings_are_refused_by_name() {
    let build = |f: Setting| f(Client::builder()).build().map(drop);
    let table: [(&str, &str, Setting); 9] = [
        ("non-https base URL", "base_url", |b| {
            b.api_key(API_KEY).base_url("http://api.example.com")
        }),
        ("non-https CDN base URL", "cdn_base_url", |b| {
            b.cdn_secret(CDN_SECRET)
                .cdn_base_url("http://cdn.example.com")
        }),
        ("base URL with credentials", "base_url", |b| {
            b.api_key(API_KEY).base_url("https://u:p@api.example.com")
        }),
        ("no key nor secret", "api_key", |b| {
            b.base_url("https://api.example.com")
        }),
        ("empty API key", "api_key", |b| {
            b.api_key("").base_url("https://api.example.com")
        }),
        ("API key with a line break", "api_key", |b| {
            b.api_key("ab\ncd").base_url("https://api.example.com")
        }),
        ("CDN customer with a slash", "cdn_customer", |b| {
            b.cdn_secret(CDN_SECRET).cdn_customer("C1/../C2")
        }),
        ("no attempt allowed", "retry_policy.max_attempts", |b| {
            b.api_key(API_KEY)
                .retry_policy(RetryPolicy::default().max_attempts(0))
        }),
        ("zero deadline", "retry_policy.deadline", |b| {
            b.api_key(API_KEY)
                .retry_policy(RetryPolicy::default().deadline(std::time::Duration::ZERO))
        }),
    ];
    for (what, argument, f) in table {
        match build(f) {
            Err(Error::InvalidInput {
                argument: named, ..
            }) if named == argument => {}
            other => panic!("{what}: expected InvalidInput({argument}), got {other:?}"),
        }
    }
}

/// A client missing the key or the secret refuses the calls that need them, naming
/// the setting, before sending.
#[tokio::test]
async fn calls_without_their_credential_are_refused_by_name() {
    let server = MockServer::start_async().await;
    let anything = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(200).body("{}");
        })
        .await;
    let cdn_only = Client::builder()
        .cdn_secret(CDN_SECRET)
        .cdn_base_url(format!("{}/cdn", server.base_url()))
        .cdn_customer("C123456")
        .build()
        .unwrap();
    let api_only = Client::builder()
        .api_key(API_KEY)
        .base_url(server.base_url())
        .build()
        .unwrap();
    let no_customer = Client::builder()
        .cdn_secret(CDN_SECRET)
        .cdn_base_url(format!("{}/cdn", server.base_url()))
        .build()
        .unwrap();
    let zone = ZoneId::new("1001").unwrap();
    let outcomes = [
        ("api_key", cdn_only.virtual_servers().list().await.map(drop)),
        (
            "api_key",
            cdn_only
                .domains()
                .set_ttl(&domain("example.com"), 3600)
                .await
                .map(drop),
        ),
        (
            "cdn_base_url",
            api_only.cdn().purge(&zone, &["/a"]).await.map(drop),
        ),
        (
            "cdn_base_url",
            api_only.cdn().origins().list().await.map(drop),
        ),
        (
            "cdn_customer",
            no_customer.cdn().acl().get().await.map(drop),
        ),
    ];
    for (argument, outcome) in outcomes {
        assert!(
            matches!(&outcome, Err(Error::InvalidInput { argument: named, .. }) if named == argument),
            "{argument}: {outcome:?}"
        );
    }
    assert_eq!(anything.calls_async().await, 0);
}
