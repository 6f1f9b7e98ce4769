//! Catalogues: normalised output (snapshots), the path and query of each read,
//! validation before sending, and typed decode errors.

use hostapi::{BareMetalId, ControlPanelId, Error, OperatingSystemId, PartitionSize};
use hostapi_tests::{API_KEY, client, fixture, to_json};
use httpmock::Method::GET;
use httpmock::MockServer;

fn os() -> OperatingSystemId {
    OperatingSystemId::from(664u32)
}

#[tokio::test]
async fn rescue_images_operating_systems_and_control_panels() {
    let server = MockServer::start_async().await;
    let mut mocks = Vec::new();
    for (path, file) in [
        ("/v1/rescueImages", "rescue_images.json"),
        ("/v1/operatingSystems", "operating_systems.json"),
        (
            "/v1/operatingSystems/664/controlPanels",
            "control_panels.json",
        ),
    ] {
        mocks.push(
            server
                .mock_async(|when, then| {
                    when.method(GET).path(path).header("X-Svc-Auth", API_KEY);
                    then.status(200)
                        .body(fixture(&format!("infra-rest/{file}")));
                })
                .await,
        );
    }
    let client = client(&server);
    let catalog = client.catalog();
    let images = catalog.list_rescue_images().await.unwrap();
    let systems = catalog.list_operating_systems().await.unwrap();
    let panels = catalog.list_control_panels(&os()).await.unwrap();
    for mock in &mocks {
        mock.assert_async().await;
    }
    assert_eq!(images[0].id.as_str(), "121");
    assert!(images[1].extra.contains_key("architecture"));
    assert_eq!(systems[0].id, os());
    assert!(systems[2].extra.contains_key("family"));
    assert_eq!(panels[1].id, ControlPanelId::from(2u32));
    insta::assert_json_snapshot!("rescue_images_list", to_json(&images));
    insta::assert_json_snapshot!("operating_systems_list", to_json(&systems));
    insta::assert_json_snapshot!("control_panels_list", to_json(&panels));
}

#[tokio::test]
async fn single_operating_system_and_control_panel() {
    let server = MockServer::start_async().await;
    let os_mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/operatingSystems/664")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(r#"{"operatingSystem":{"id":664,"name":"Ubuntu 22.04 (x86_64)"}}"#);
        })
        .await;
    let panel_mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/operatingSystems/664/controlPanels/2")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(r#"{"controlPanel":{"id":2,"name":"cPanel Admin"}}"#);
        })
        .await;
    let client = client(&server);
    let system = client.catalog().get_operating_system(&os()).await.unwrap();
    let panel = client
        .catalog()
        .get_control_panel(&os(), &ControlPanelId::from(2u32))
        .await
        .unwrap();
    os_mock.assert_async().await;
    panel_mock.assert_async().await;
    assert_eq!(system.name, "Ubuntu 22.04 (x86_64)");
    assert_eq!(panel.name, "cPanel Admin");
}

#[tokio::test]
async fn partition_schema_types_sizes_and_swap() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/operatingSystems/664/partitionSchema")
                .header("X-Svc-Auth", API_KEY)
                .query_param("serverPackId", "12345");
            then.status(200)
                .body(fixture("infra-rest/partition_schema.json"));
        })
        .await;
    let schema = client(&server)
        .catalog()
        .get_partition_schema(&os(), &BareMetalId::from(12345u32))
        .await
        .unwrap();
    mock.assert_async().await;
    let suggestion = schema.suggestion.as_ref().unwrap();
    let sizes: Vec<_> = suggestion.partitions.iter().map(|p| p.size).collect();
    assert_eq!(
        sizes,
        [
            PartitionSize::Megabytes(500),
            PartitionSize::Megabytes(4096),
            PartitionSize::Megabytes(20480),
            PartitionSize::Remainder,
        ]
    );
    // Swap's empty mountpoint is no mountpoint.
    assert_eq!(suggestion.partitions[1].filesystem, "swap");
    assert_eq!(suggestion.partitions[1].mountpoint, None);
    assert_eq!(suggestion.partitions[3].mountpoint.as_deref(), Some("/"));
    assert_eq!(suggestion.bootable, Some(0));
    assert_eq!(schema.limit, Some(4));
    assert_eq!(schema.disks, ["/dev/sda", "/dev/sdb"]);
    assert!(schema.filesystem_types.iter().any(|t| t == "swap"));
    assert!(schema.extra.contains_key("raidLevels"));
    insta::assert_json_snapshot!("partition_schema", to_json(&schema));
}

#[tokio::test]
async fn services_are_kept_as_sent() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/services")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(fixture("infra-rest/services.json"));
        })
        .await;
    let services = client(&server).catalog().list_services().await.unwrap();
    mock.assert_async().await;
    assert_eq!(services.as_json()["totalCount"], 3);
    let expected: serde_json::Value =
        serde_json::from_str(&fixture("infra-rest/services.json")).unwrap();
    assert_eq!(services.clone().into_json(), expected);
    insta::assert_json_snapshot!("services_list", to_json(&services));
}

#[tokio::test]
async fn non_numeric_catalogue_ids_send_nothing() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let client = client(&server);
    let catalog = client.catalog();
    let ubuntu: OperatingSystemId = "ubuntu".parse().unwrap();
    let cpanel: ControlPanelId = "cpanel".parse().unwrap();
    let argument = |err: Error| match err {
        Error::InvalidInput { argument, .. } => argument,
        other => panic!("{other}"),
    };
    assert_eq!(
        argument(catalog.get_operating_system(&ubuntu).await.unwrap_err()),
        "os"
    );
    assert_eq!(
        argument(catalog.list_control_panels(&ubuntu).await.unwrap_err()),
        "os"
    );
    assert_eq!(
        argument(catalog.get_control_panel(&os(), &cpanel).await.unwrap_err()),
        "panel"
    );
    assert_eq!(
        argument(
            catalog
                .get_partition_schema(&ubuntu, &BareMetalId::from(1u32))
                .await
                .unwrap_err()
        ),
        "os"
    );
    assert_eq!(any.calls_async().await, 0);
}

#[tokio::test]
async fn unreadable_fields_are_decode_errors_with_their_path() {
    let partition = |p: &str| {
        format!(
            r#"{{"partitionSchema":{{"suggestion":{{"hdd":{{"partition":[{{"index":0,"size":"500","type":"ext2","mountpoint":"/boot"}},{p}]}}}}}}}}"#
        )
    };
    let cases = [
        (
            partition(r#"{"index":1,"size":"big","type":"ext4","mountpoint":"/"}"#),
            "partitionSchema.suggestion.hdd.partition[1].size",
        ),
        (
            partition(r#"{"index":1,"type":"ext4","mountpoint":"/"}"#),
            "partitionSchema.suggestion.hdd.partition[1].size",
        ),
        (
            partition(r#"{"index":-1,"size":"*","type":"ext4","mountpoint":"/"}"#),
            "partitionSchema.suggestion.hdd.partition[1].index",
        ),
        (
            partition(r#"{"index":1,"size":"*","type":"","mountpoint":"/"}"#),
            "partitionSchema.suggestion.hdd.partition[1].type",
        ),
        (
            r#"{"partitionSchema":{"suggestion":{"bootable":-2}}}"#.to_owned(),
            "partitionSchema.suggestion.bootable",
        ),
    ];
    for (body, path) in cases {
        let server = MockServer::start_async().await;
        server
            .mock_async(|when, then| {
                when.method(GET)
                    .path("/v1/operatingSystems/664/partitionSchema");
                then.status(200).body(&body);
            })
            .await;
        match client(&server)
            .catalog()
            .get_partition_schema(&os(), &BareMetalId::from(1u32))
            .await
            .unwrap_err()
        {
            Error::Decode {
                operation, path: p, ..
            } => {
                assert_eq!(operation, "getPartitionSchema", "{body}");
                assert_eq!(p, path, "{body}");
            }
            other => panic!("{body}: {other}"),
        }
    }
    // A catalogue entry without a name.
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/rescueImages");
            then.status(200)
                .body(r#"{"rescueImages":[{"rescueImage":{"id":1}}]}"#);
        })
        .await;
    match client(&server)
        .catalog()
        .list_rescue_images()
        .await
        .unwrap_err()
    {
        Error::Decode {
            operation, path, ..
        } => {
            assert_eq!(operation, "listRescueImages");
            assert_eq!(path, "rescueImages[0].rescueImage.name");
        }
        other => panic!("{other}"),
    }
}
