import FeedlineFuzzing
import Foundation

#if FUZZING
/// The target libFuzzer drives, from `FEEDLINE_FUZZ_TARGET` (read once, at the first input).
private let selected: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FEEDLINE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("feedline-fuzz: set FEEDLINE_FUZZ_TARGET to one of: \(names).\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try selected.run(Data(bytes: bytes, count: size))
    } catch {
        fatalError("\(selected.rawValue): \(error)")
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links executables with `main` renamed to `<module>_main`; this is it when fuzzing.
@_cdecl("FeedlineFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzOneInput)
}
#else
/// Without libFuzzer: `feedline-fuzz TARGET FILE…` runs each file through a target once, to
/// replay a crash or a corpus.
@main
struct FuzzReplay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: feedline-fuzz TARGET FILE…  (targets: \(names)); build with Scripts/fuzz to fuzz")
            exit(arguments.isEmpty ? 0 : 2)
        }
        var failures = 0
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read")
                failures += 1
                continue
            }
            do {
                try target.run(data)
                print("\(path): ok")
            } catch {
                print("\(path): \(error)")
                failures += 1
            }
        }
        exit(failures == 0 ? 0 : 1)
    }
}
#endif
