// swift-tools-version: 6.2
import PackageDescription

/// Every target of ours builds in Swift 6 language mode with warnings as errors.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "Feedline",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Feedline", targets: ["Feedline"]),
        .library(name: "FeedlineObservation", targets: ["FeedlineObservation"]),
        .library(name: "FeedlineMastodon", targets: ["FeedlineMastodon"]),
        .library(name: "FeedlineAccounts", targets: ["FeedlineAccounts"]),
        .library(name: "FeedlineJSONL", targets: ["FeedlineJSONL"]),
        .executable(name: "feedline-fuzz", targets: ["FeedlineFuzz"]),
        .library(name: "FeedlineREPL", targets: ["FeedlineREPL"]),
        .library(name: "FeedlineState", targets: ["FeedlineState"]),
        .executable(name: "feedline", targets: ["FeedlineCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // FeedlineAccounts: the config file (~/.config/feedline/config.toml).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // Test-only: a real HTTP server on 127.0.0.1 for the HTTP service's tests.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // FeedlineState: the local SQLite database (GRDB links the system's libsqlite3).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // FeedlineMastodon's HTTP (and sign-in's): AsyncHTTPClient on SwiftNIO, TLS by swift-nio-ssl's
        // own BoringSSL, requests and answers as swift-http-types values.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // AsyncHTTPClient's own dependencies, named for the error types FeedlineMastodon maps
        // to its own (and, in the tests, a TLS server).
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.36.0"),
        // `swift package generate-documentation`: the DocC catalog of Feedline (a plugin; never linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Feedline",
            swiftSettings: strict
        ),
        // The SwiftUI face: `@Observable` wrappers over the view models' relays. A UIKit or text
        // front does not need it; a SwiftUI front imports it next to Feedline.
        .target(
            name: "FeedlineObservation",
            dependencies: ["Feedline"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineTests",
            dependencies: ["Feedline", "FeedlineObservation", "FeedlineTestSupport"],
            swiftSettings: strict
        ),
        .target(
            name: "FeedlineMastodon",
            dependencies: [
                "Feedline",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineMastodonTests",
            dependencies: [
                "FeedlineMastodon", "Feedline", "FeedlineTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        // Signing in (OAuth with PKCE), stored accounts and the config file under
        // ~/.config/feedline. Its own module so that the C++ TOML parser stays out of
        // FeedlineMastodon's users, the fuzz build and the benchmarks.
        .target(
            name: "FeedlineAccounts",
            dependencies: [
                "FeedlineMastodon", "Feedline",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineAccountsTests",
            dependencies: ["FeedlineAccounts", "FeedlineMastodon", "Feedline", "FeedlineTestSupport"],
            swiftSettings: strict
        ),
        // Helpers the test targets share (finding the package and the built binary, driving it as
        // a child process). Not a product: nothing outside the tests sees it.
        .target(
            name: "FeedlineTestSupport",
            dependencies: ["Feedline", "FeedlineREPL"],
            path: "Tests/FeedlineTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineHTTPTests",
            dependencies: [
                "FeedlineMastodon", "FeedlineAccounts", "Feedline", "FeedlineTestSupport",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // A client trusting a test certificate, and the tiny HTTPS server that presents it.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The fake server checks PKCE verifiers with libcrypto's SHA-256 itself, not
                // through Feedline's PKCE type.
                "CLibCrypto",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "FeedlineJSONL",
            dependencies: ["Feedline"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineJSONLTests",
            dependencies: ["FeedlineJSONL", "Feedline", "FeedlineMastodon", "FeedlineTestSupport"],
            swiftSettings: strict
        ),
        .target(
            name: "FeedlineFuzzing",
            // FeedlineAccounts for the config file's target (TOMLKit, with its C++ parser).
            dependencies: ["Feedline", "FeedlineMastodon", "FeedlineREPL", "FeedlineJSONL", "FeedlineAccounts"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FeedlineFuzz",
            dependencies: ["FeedlineFuzzing"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineFuzzingTests",
            dependencies: ["FeedlineFuzzing"],
            swiftSettings: strict
        ),
        // The local database (issue 14): saved lists, reading positions and the outbox in one
        // SQLite file per account and server. Its own module so that GRDB stays out of the core,
        // the fuzz build and the benchmarks' other scenarios.
        .target(
            name: "FeedlineState",
            dependencies: [
                "Feedline",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own API, for the one question GRDB does not ask (is the file read-only).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineStateTests",
            dependencies: [
                "FeedlineState", "Feedline", "FeedlineTestSupport",
                // To make foreign, damaged and "newer" files as another program would.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // SHA-256 from the system's OpenSSL, for the tests' fake server only: it checks PKCE
        // challenges with a hash that is not Feedline's own (`FeedlineAccounts`' `SHA256`).
        .systemLibrary(
            name: "CLibCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CReadline",
            providers: [.apt(["libreadline-dev"])]
        ),
        .target(
            name: "FeedlineREPL",
            dependencies: ["Feedline", "CReadline"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FeedlineCLI",
            dependencies: [
                "FeedlineREPL",
                "FeedlineJSONL",
                "FeedlineMastodon",
                "FeedlineAccounts",
                "FeedlineState",
                "Feedline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            // The release binary carries the Swift runtime and Foundation in itself: a start then
            // maps and relocates a handful of system libraries instead of twenty-odd shared ones
            // (Docs/BENCHMARKS.md, "Start to exit"). Debug and sanitizer builds stay dynamic.
            // Foundation's static archive names its C parts by hand (its modules were compiled
            // for the shared libraries, so they carry no autolink entries for them).
            // `-static-stdlib` also exports every symbol of our own code to the dynamic symbol
            // table (41,000 of them), which each start paid for: the runtime's `dladdr` at launch
            // walks the table, and every library symbol `ld.so` binds is looked up there first;
            // `--no-export-dynamic` keeps them out.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                        "-Xlinker", "--no-export-dynamic",
                    ],
                    .when(platforms: [.linux], configuration: .release)
                ),
            ]
        ),
        // The command line as `feedline` reads it (its quick path against ArgumentParser's).
        .testTarget(
            name: "FeedlineCLITests",
            dependencies: [
                "FeedlineCLI", "FeedlineTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FeedlineREPLTests",
            dependencies: ["FeedlineREPL", "Feedline", "FeedlineMastodon", "FeedlineTestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
