//! Bad input is refused before anything is sent: for every write (and the reads that
//! take the same kinds of arguments), each invalid argument a caller can pass gives
//! `Error::InvalidInput` naming that argument, and the mock server behind the client
//! sees no request at all.

use std::future::Future;
use std::pin::Pin;

use chrono::NaiveDate;
use hostapi::{
    BareMetalId, Client, CloudServerId, CredentialType, DnsRecordId, DnsRecordType,
    DnsRecordUpdate, Error, InstallPartition, InstallRequest, IpUpdate, MetricsQuery, NewDhcpLease,
    NewDnsRecord, NewOrigin, OperatingSystemId, OriginUpdate, PartitionLayout, PrivateNetworkId,
    PrivateRackId, RetryPolicy, SubCustomerUpdate, VirtualServerId, ZoneId,
};
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

/// What the calls borrow.
struct Fixtures<'a> {
    records: hostapi::DnsRecords<'a>,
    cloud: CloudServerId,
    zone: ZoneId,
}

fn cases<'a>(client: &'a Client, fixtures: &'a Fixtures<'a>) -> Vec<Case<'a>> {
    let records = &fixtures.records;
    let cloud = &fixtures.cloud;
    let zone = &fixtures.zone;
    let root = || InstallPartition::rest("ext4").mountpoint("/");
    let lease = |boot: &str, dns: &str| NewDhcpLease {
        boot_file_name: "http://boot.example.com/pxe".into(),
        boot_server: boot.into(),
        dns_server: dns.into(),
    };
    vec![
        // Bad IP addresses.
        case!(
            "IP not an address",
            "ip",
            client
                .ips()
                .update("300.1.1.1", &IpUpdate::NullRouted(true))
        ),
        case!(
            "IP of a bare metal",
            "ip",
            client
                .bare_metals()
                .ips(&bm())
                .update("192.0.2", &IpUpdate::NullRouted(false))
        ),
        case!(
            "IP of a rack",
            "ip",
            client
                .private_racks()
                .ips(&PrivateRackId::from(7001u32))
                .update("::g", &IpUpdate::NullRouted(true))
        ),
        case!(
            "reverse lookup not a host name",
            "reverse_lookup",
            client
                .ips()
                .update("192.0.2.1", &IpUpdate::ReverseLookup("not a host".into()))
        ),
        case!(
            "lease boot server not an IP",
            "boot_server",
            client
                .bare_metals()
                .leases(&bm())
                .create(&lease("tftp.example.com", "192.0.2.53"))
        ),
        case!(
            "lease DNS server not an IP",
            "dns_server",
            client
                .bare_metals()
                .leases(&bm())
                .create(&lease("192.0.2.9", "1.2.3"))
        ),
        case!(
            "lease boot file blank",
            "boot_file_name",
            client.bare_metals().leases(&bm()).create(&NewDhcpLease {
                boot_file_name: "  ".into(),
                ..lease("192.0.2.9", "192.0.2.53")
            })
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
            client.bare_metals().leases(&bm()).delete("00:1a:2b:3c:4d")
        ),
        case!(
            "MAC not hex",
            "mac",
            client.bare_metals().leases(&bm()).get("00:1a:2b:3c:4d:zz")
        ),
        // TTL out of range.
        case!(
            "TTL below a minute",
            "ttl",
            client.domains().set_ttl("example.com", 59)
        ),
        case!(
            "TTL above a day",
            "ttl",
            client.domains().set_ttl("example.com", 86_401)
        ),
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
                &DnsRecordUpdate {
                    name: "www".into(),
                    record_type: DnsRecordType::Cname,
                    content: "example.com.".into(),
                    priority: Some(5)
                }
            )
        ),
        case!(
            "record name blank",
            "name",
            records.create(&NewDnsRecord::new(" ", DnsRecordType::Txt, "v=spf1"))
        ),
        case!(
            "record id not numeric on update",
            "id",
            records.update(
                &DnsRecordId::new("abc").unwrap(),
                &DnsRecordUpdate {
                    name: "www".into(),
                    record_type: DnsRecordType::A,
                    content: "192.0.2.1".into(),
                    priority: None
                }
            )
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
        case!(
            "operating system id not numeric",
            "os_id",
            client.bare_metals().install(
                &bm(),
                &InstallRequest::new(OperatingSystemId::new("ubuntu").unwrap())
            )
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
            client.domains().get("example.com/../x")
        ),
        case!(
            "domain `..`",
            "domain",
            client.domains().records("..").list()
        ),
        case!(
            "credential user name with a slash",
            "username",
            client
                .cloud_servers()
                .credential(cloud, CredentialType::OperatingSystem, "../root")
        ),
        case!(
            "network id not numeric",
            "network",
            client
                .private_networks()
                .delete(&PrivateNetworkId::new("x1").unwrap())
        ),
        case!(
            "virtual server id not numeric",
            "id",
            client
                .virtual_servers()
                .reboot(&VirtualServerId::new("web-1").unwrap())
        ),
        // Other writes.
        case!(
            "origin label blank",
            "label",
            client
                .cdn()
                .create_origin(&NewOrigin::new(" ", "https://origin.example.com"))
        ),
        case!(
            "origin URL not http",
            "url",
            client
                .cdn()
                .create_origin(&NewOrigin::new("www", "ftp://origin.example.com"))
        ),
        case!(
            "origin update changing nothing",
            "update",
            client
                .cdn()
                .update_origin(&hostapi::OriginId::from(101u32), &OriginUpdate::new())
        ),
        case!(
            "sub-customer update setting nothing",
            "update",
            client.cdn().upsert_sub_customer(
                &hostapi::CustomerNumber::new("C12345601").unwrap(),
                &SubCustomerUpdate::new()
            )
        ),
        case!(
            "reference with a line break",
            "reference",
            client.bare_metals().set_reference(&bm(), "web\n01")
        ),
        case!("page size 0", "page_size", async {
            use futures::TryStreamExt;
            client
                .cloud_servers()
                .list()
                .page_size(0)
                .stream()
                .try_collect::<Vec<_>>()
                .await
        }),
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
        records: client.domains().records("example.com"),
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
            b.api_key(API_KEY).retry_policy(RetryPolicy {
                max_attempts: 0,
                ..RetryPolicy::default()
            })
        }),
        ("zero deadline", "retry_policy.deadline", |b| {
            b.api_key(API_KEY).retry_policy(RetryPolicy {
                deadline: std::time::Duration::ZERO,
                ..RetryPolicy::default()
            })
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
                .set_ttl("example.com", 3600)
                .await
                .map(drop),
        ),
        (
            "cdn_base_url",
            api_only.cdn().purge(&zone, &["/a"]).await.map(drop),
        ),
        ("cdn_base_url", api_only.cdn().origins().await.map(drop)),
        ("cdn_customer", no_customer.cdn().acl().await.map(drop)),
    ];
    for (argument, outcome) in outcomes {
        assert!(
            matches!(&outcome, Err(Error::InvalidInput { argument: named, .. }) if named == argument),
            "{argument}: {outcome:?}"
        );
    }
    assert_eq!(anything.calls_async().await, 0);
}
