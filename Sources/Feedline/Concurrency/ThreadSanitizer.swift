#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The ThreadSanitizer runtime's annotation entry points, when the process runs under it.
///
/// Found once with `dlsym` on the running image: present only in a `-sanitize=thread` build,
/// so ordinary builds carry no dependency on the sanitizer. What a lock pays to ask is one load
/// of ``presence``, a constant-initialised static: a lazily initialised one (``hooks``) costs a
/// `swift_once` call on every read, which profiles of `Relay.set` showed on every lock.
@usableFromInline
enum ThreadSanitizer {
    @usableFromInline
    struct Hooks: Sendable {
        @usableFromInline let acquire: @convention(c) (UnsafeMutableRawPointer?) -> Void
        @usableFromInline let release: @convention(c) (UnsafeMutableRawPointer?) -> Void
    }

    /// ``hooks`` looked up yet, and found? ``unknown``, ``absent`` or ``present``. Written once
    /// by whichever thread looks first (every thread that races it writes the same answer).
    @usableFromInline static let presence = Atomic<UInt8>(0)
    @inlinable static var unknown: UInt8 { 0 }
    @inlinable static var absent: UInt8 { 1 }
    @inlinable static var present: UInt8 { 2 }

    /// The hooks, or `nil` outside a ThreadSanitizer build; one relaxed load once known.
    @inlinable
    static var active: Hooks? {
        presence.load(ordering: .relaxed) == absent ? nil : lookUp()
    }

    /// ``hooks``, recording in ``presence`` whether there are any.
    @usableFromInline
    static func lookUp() -> Hooks? {
        let found = hooks
        presence.store(found == nil ? absent : present, ordering: .relaxed)
        return found
    }

    /// The hooks, or `nil` outside a ThreadSanitizer build. A process-wide constant, computed once.
    @usableFromInline static let hooks: Hooks? = {
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
