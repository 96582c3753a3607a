import Foundation

// The run loop names `AudioServicesAddSystemSoundCompletion` takes. Linux's Foundation does
// not export Core Foundation; a `CFRunLoop` is the Foundation `RunLoop`, as `CMTimebase`'s
// run loops are.

/// A run loop, as Core Foundation's `CFRunLoop` (Foundation's `RunLoop` here).
public typealias CFRunLoop = RunLoop

/// The main thread's run loop (`CFRunLoopGetMain`).
public func CFRunLoopGetMain() -> CFRunLoop! { RunLoop.main }

/// The calling thread's run loop (`CFRunLoopGetCurrent`).
public func CFRunLoopGetCurrent() -> CFRunLoop! { RunLoop.current }
