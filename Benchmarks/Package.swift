// swift-tools-version: 6.2
import PackageDescription

/// The benchmarks live in their own package so that users of the library never resolve
/// OpenCombine (or anything else a benchmark compares against).
let package = Package(
    name: "FeedlineBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "feedline-bench", targets: ["FeedlineBench"]),
    ],
    dependencies: [
        .package(name: "Feedline", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .target(name: "CHeapInfo"),
        .executableTarget(
            name: "FeedlineBench",
            dependencies: [
                .product(name: "Feedline", package: "Feedline"),
                .product(name: "FeedlineMastodon", package: "Feedline"),
                .product(name: "FeedlineState", package: "Feedline"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                "CHeapInfo",
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
