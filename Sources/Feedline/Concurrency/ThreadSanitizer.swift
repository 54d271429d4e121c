#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The ThreadSanitizer runtime's annotation entry points, when the process runs under it.
///
/// Found once with `dlsym` on the running image: present only in a `-sanitize=thread` build,
/// so ordinary builds carry no dependency on the sanitizer and pay one `nil` check per lock.
enum ThreadSanitizer {
    struct Hooks: Sendable {
        let acquire: @convention(c) (UnsafeMutableRawPointer?) -> Void
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void
    }

    /// The hooks, or `nil` outside a ThreadSanitizer build. A process-wide constant, computed once.
    static let hooks: Hooks? = {
        guard let image = dlopen(nil, RTLD_NOW),
              let acquire = dlsym(image, "__tsan_acquire"),
              let release = dlsym(image, "__tsan_release")
        else { return nil }
        typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void
        return Hooks(
            acquire: unsafeBitCast(acquire, to: Hook.self),
            release: unsafeBitCast(release, to: Hook.self)
        )
    }()
}
