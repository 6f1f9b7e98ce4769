//! Catalogues: normalised output (snapshots), the path and query of each read,
//! validation before sending, and typed decode errors.

use hostapi::catalog::{PartitionSchema, PartitionSize};
use hostapi::types::{BareMetalId, ControlPanelId, OperatingSystemId};
use hostapi::{Client, Error};
use hostapi_tests::{API_KEY, client, fixture, strict_client, to_json};
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
    let images = catalog.rescue_images().list().await.unwrap();
    let systems = catalog.operating_systems().list().await.unwrap();
    let panels = catalog
        .operating_systems()
        .control_panels(&os())
        .list()
        .await
        .unwrap();
    for mock in &mocks {
        mock.assert_async().await;
    }
    assert_eq!(images[0].id.as_str(), "121");
    assert!(images[1].extra.contains_key("architecture"));
    assert_eq!(systems[0].id, os());
    assert!(systems[2].extra.contains_key("family"));
    assert_eq!(panels[1].id, ControlPanelId::from(2u32));
    assert!(images.is_complete() && systems.is_complete() && panels.is_complete());
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
    let system = client
        .catalog()
        .operating_systems()
        .get(&os())
        .await
        .unwrap();
    let panel = client
        .catalog()
        .operating_systems()
        .control_panels(&os())
        .get(&ControlPanelId::from(2u32))
        .await
        .unwrap();
    os_mock.assert_async().await;
    panel_mock.assert_async().await;
    assert_eq!(system.id, os());
    assert_eq!(system.name.as_deref(), Some("Ubuntu 22.04 (x86_64)"));
    assert_eq!(panel.id, ControlPanelId::from(2u32));
    assert_eq!(panel.name.as_deref(), Some("cPanel Admin"));
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
        .operating_systems()
        .partition_schema(&os(), &BareMetalId::from(12345u32))
        .await
        .unwrap();
    mock.assert_async().await;
    let suggestion = schema.suggestion.as_ref().unwrap();
    let sizes: Vec<_> = suggestion.partitions.iter().map(|p| p.size).collect();
    assert_eq!(
        sizes,
        [
            Some(PartitionSize::Megabytes(500)),
            Some(PartitionSize::Megabytes(4096)),
            Some(PartitionSize::Megabytes(20480)),
            Some(PartitionSize::Remainder),
        ]
    );
    // Swap's empty mountpoint is no mountpoint.
    assert_eq!(suggestion.partitions[1].filesystem.as_deref(), Some("swap"));
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
    let services = client(&server).catalog().services().get().await.unwrap();
    mock.assert_async().await;
    assert_eq!(services.as_json()["totalCount"], 3);
    let expected: serde_json::Value =
        serde_json::from_str(&fixture("infra-rest/services.json")).unwrap();
    assert_eq!(services.clone().into_json(), expected);
    insta::assert_json_snapshot!("services_list", to_json(&services));
}

#[tokio::test]
async fn non_numeric_catalogue_ids_send_nothing() {
    // Catalogue ids are numbers by their rule: one that is not cannot be made, so no
    // call can send one.
    let argument = |err: Error| match err {
        Error::InvalidInput { argument, .. } => argument,
        other => panic!("{other}"),
    };
    assert_eq!(
        argument("ubuntu".parse::<OperatingSystemId>().unwrap_err()),
        "OperatingSystemId"
    );
    assert_eq!(
        argument("cpanel".parse::<ControlPanelId>().unwrap_err()),
        "ControlPanelId"
    );
    assert_eq!(
        argument(
            "rescue-1"
                .parse::<hostapi::types::RescueImageId>()
                .unwrap_err()
        ),
        "RescueImageId"
    );
}

/// A partition schema answer whose second partition is `partition`.
fn schema_with(partition: &str) -> String {
    format!(
        r#"{{"partitionSchema":{{"suggestion":{{"hdd":{{"partition":[{{"index":0,"size":"500","type":"ext2","mountpoint":"/boot"}},{partition}]}}}}}}}}"#
    )
}

/// Serves `body` as the partition schema of [`os`], and reads it with a lenient and a
/// strict client.
async fn read_schema(
    body: &str,
) -> (
    Result<PartitionSchema, Error>,
    Result<PartitionSchema, Error>,
) {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/operatingSystems/664/partitionSchema");
            then.status(200).body(body);
        })
        .await;
    let read = |client: Client| async move {
        client
            .catalog()
            .operating_systems()
            .partition_schema(&os(), &BareMetalId::from(1u32))
            .await
    };
    (
        read(client(&server)).await,
        read(strict_client(&server)).await,
    )
}

/// The operation and JSON path of a decode error.
fn decode_path(err: Error) -> (&'static str, String) {
    match err {
        Error::Decode(e) => (e.call.expect("the call is kept").operation, e.path),
        other => panic!("expected a decode error, got {other}"),
    }
}

#[tokio::test]
async fn an_unreadable_field_is_none_and_kept_or_strictly_an_error_with_its_path() {
    let cases = [
        (
            schema_with(r#"{"index":1,"size":"big","type":"ext4","mountpoint":"/"}"#),
            "partitionSchema.suggestion.hdd.partition[1].size",
        ),
        (
            r#"{"partitionSchema":{"suggestion":{"bootable":-2}}}"#.to_owned(),
            "partitionSchema.suggestion.bootable",
        ),
    ];
    for (body, path) in cases {
        let (lenient, strict) = read_schema(&body).await;
        let schema = lenient.unwrap_or_else(|e| panic!("{body}: {e}"));
        let suggestion = schema.suggestion.as_ref().unwrap();
        if path.ends_with("size") {
            let second = &suggestion.partitions[1];
            assert_eq!(second.index, 1);
            assert_eq!(second.size, None, "{body}");
            assert_eq!(second.extra["size"], "big", "{body}");
            assert_eq!(second.filesystem.as_deref(), Some("ext4"));
            assert_eq!(
                suggestion.partitions[0].size,
                Some(PartitionSize::Megabytes(500))
            );
        } else {
            assert_eq!(suggestion.bootable, None, "{body}");
            assert_eq!(suggestion.extra["bootable"], -2, "{body}");
        }
        assert_eq!(
            decode_path(strict.unwrap_err()),
            ("getPartitionSchema", path.to_owned()),
            "{body}"
        );
    }
}

#[tokio::test]
async fn a_partition_whose_index_cannot_be_read_is_left_out_and_kept() {
    // The index identifies a partition: without it the partition is not one.
    let body = schema_with(r#"{"index":-1,"size":"*","type":"ext4","mountpoint":"/"}"#);
    let (lenient, strict) = read_schema(&body).await;
    let schema = lenient.unwrap();
    let suggestion = schema.suggestion.as_ref().unwrap();
    assert_eq!(suggestion.partitions.len(), 1);
    assert_eq!(suggestion.partitions[0].index, 0);
    assert_eq!(
        to_json(&suggestion.extra)["hdd.partition[1]"]["index"],
        -1,
        "{:?}",
        suggestion.extra
    );
    assert_eq!(
        decode_path(strict.unwrap_err()),
        (
            "getPartitionSchema",
            "partitionSchema.suggestion.hdd.partition[1].index".to_owned()
        )
    );
}

#[tokio::test]
async fn absent_and_blank_optional_fields_are_none_even_strictly() {
    // What the old reading refused: a partition without a size, a blank type. Both are
    // "no value" by the wire policy, not unreadable.
    for (body, size, filesystem) in [
        (
            schema_with(r#"{"index":1,"type":"ext4","mountpoint":"/"}"#),
            None,
            Some("ext4"),
        ),
        (
            schema_with(r#"{"index":1,"size":"*","type":"","mountpoint":"/"}"#),
            Some(PartitionSize::Remainder),
            None,
        ),
    ] {
        let (lenient, strict) = read_schema(&body).await;
        for schema in [lenient, strict] {
            let schema = schema.unwrap_or_else(|e| panic!("{body}: {e}"));
            let second = &schema.suggestion.as_ref().unwrap().partitions[1];
            assert_eq!(second.index, 1);
            assert!(second.extra.is_empty(), "{body}: {:?}", second.extra);
            assert_eq!(second.size, size, "{body}");
            assert_eq!(second.filesystem.as_deref(), filesystem, "{body}");
            assert_eq!(second.mountpoint.as_deref(), Some("/"), "{body}");
        }
    }
}

#[tokio::test]
async fn catalogue_entries_need_an_id_not_a_name() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/rescueImages");
            then.status(200).body(
                r#"{"rescueImages":[{"rescueImage":{"id":1}},{"rescueImage":{"name":"no id"}},{"rescueImage":{"id":"3","name":"GRML"}}]}"#,
            );
        })
        .await;
    for client in [client(&server), strict_client(&server)] {
        let images = client.catalog().rescue_images().list().await.unwrap();
        // Without a name: a name of none. Without an id: unreadable, in its place.
        assert_eq!(
            images.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
            ["1", "3"]
        );
        assert_eq!(images[0].name, None);
        assert_eq!(images[1].name.as_deref(), Some("GRML"));
        let [unreadable] = images.unreadable() else {
            panic!("one image is unreadable: {:?}", images.unreadable());
        };
        assert_eq!(unreadable.index, 1);
        let Error::Decode(e) = &unreadable.error else {
            panic!("expected a decode error, got {:?}", unreadable.error);
        };
        assert_eq!(
            e.call.as_ref().map(|c| c.operation),
            Some("listRescueImages")
        );
        assert_eq!(e.path, "rescueImages[1].rescueImage.id");
    }
}
