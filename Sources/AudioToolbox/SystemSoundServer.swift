import ALSAAudio
import CaptureCore
import Dispatch
import Foundation

/// What stands in for Apple's System Sound server: the registered sounds, their properties
/// and completion routines, and the playing of them.
///
/// Playing never blocks the caller. A sound created from a file plays on a thread of its
/// own ("OpenCapture.AudioToolbox.play", one per sound, so sounds overlap as on a phone)
/// that writes its samples to ALSA's `default` playback PCM and waits until they have been
/// played out. When there is nothing to play to (no sound card or sound server: the PCM
/// does not open), the sound is played as an iPhone with its sound muted plays it: not at
/// all, and the completion is called at once. The system's own sounds (1000–4095, such as
/// 1108, the camera shutter), `kSystemSoundID_Vibrate` and unknown IDs have nothing to play
/// here and are handled the same way.
///
/// Completions run on `completionQueue`, a serial queue: one at a time, in the order the
/// sounds end, each exactly once, never on the caller's thread and never under a lock.
package final class SystemSoundServer: Sendable {
    /// The server behind the AudioServices functions, playing to ALSA's `default` PCM.
    package static let shared = SystemSoundServer(output: ALSAPlayback())

    /// The first ID `create` hands out: the one after `kSystemSoundID_UserPreferredAlert`
    /// (0x1000), above the system's own sounds, as Apple's server numbers them.
    package static let firstCreatedID: SystemSoundID = 0x1001

    /// Where sounds are played.
    package let output: ALSAPlayback
    /// The serial queue completions are called on ("OpenCapture.AudioToolbox.completion").
    package let completionQueue: DispatchQueue
    private let state = Mutex(State())
    /// Entered for each play, left once its completions have been called.
    private let plays = DispatchGroup()
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    private struct State {
        var sounds: [SystemSoundID: SystemSound] = [:]
        var properties: [SystemSoundID: [AudioServicesPropertyID: UInt32]] = [:]
        var routines: [SystemSoundID: CompletionRoutine] = [:]
        var nextID = SystemSoundServer.firstCreatedID
    }

    /// A completion routine added with `AudioServicesAddSystemSoundCompletion`. The client
    /// data is the app's own pointer, handed back untouched.
    private struct CompletionRoutine: @unchecked Sendable {
        let proc: AudioServicesSystemSoundCompletionProc
        let clientData: UnsafeMutableRawPointer?
        let runLoop: RunLoop?
        let mode: RunLoop.Mode
    }

    /// A block the app passed; it runs on the completion queue only.
    private struct Block: @unchecked Sendable {
        let body: (() -> Void)?
    }

    package init(output: ALSAPlayback) {
        self.output = output
        completionQueue = DispatchQueue(label: "OpenCapture.AudioToolbox.completion")
        completionQueue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    /// Whether the calling code runs on this server's completion queue.
    package var isOnCompletionQueue: Bool {
        DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self)
    }

    // MARK: Sounds

    /// Decodes the file and registers it under a new ID.
    package func create(_ url: URL) -> Result<SystemSoundID, SystemSound.LoadError> {
        let sound: SystemSound
        do { sound = try SystemSound(contentsOf: url) } catch { return .failure(error) }
        return .success(
            state.withLock { state in
                let id = state.nextID
                state.nextID += 1
                state.sounds[id] = sound
                return id
            })
    }

    /// The decoded sound of a created ID.
    package func sound(_ id: SystemSoundID) -> SystemSound? {
        state.withLock { $0.sounds[id] }
    }

    /// Forgets a created sound, its properties and its completion routine. A play under way
    /// finishes (it holds the samples). `kAudioServicesSystemSoundUnspecifiedError` for an
    /// ID that was not created or is already disposed of.
    package func dispose(_ id: SystemSoundID) -> OSStatus {
        state.withLock { state in
            state.properties[id] = nil
            state.routines[id] = nil
            return state.sounds.removeValue(forKey: id) == nil ? kAudioServicesSystemSoundUnspecifiedError : kAudioServicesNoError
        }
    }

    /// Plays the sound and then calls `completion` and the sound's completion routine;
    /// returns at once.
    package func play(_ id: SystemSoundID, completion: (() -> Void)?) {
        let block = Block(body: completion)
        let sound = state.withLock { $0.sounds[id] }
        plays.enter()
        guard let sound else {
            complete(id, block)
            return
        }
        let thread = Thread { [self] in
            // The outcome does not matter to the app: Apple's calls the completion "for
            // every attempt to play a system sound irrespective of success or failure".
            _ = output.play(sound.samples, sampleRate: sound.sampleRate, channels: sound.channels)
            complete(id, block)
        }
        thread.name = "OpenCapture.AudioToolbox.play"
        thread.start()
    }

    private func complete(_ id: SystemSoundID, _ block: Block) {
        completionQueue.async { [self] in
            defer { plays.leave() }
            block.body?()
            guard let routine = state.withLock({ $0.routines[id] }) else { return }
            if let runLoop = routine.runLoop {
                // A timer due now wakes the run loop, which a block it is merely given would not.
                let timer = Timer(timeInterval: 0, repeats: false) { _ in routine.proc(id, routine.clientData) }
                runLoop.add(timer, forMode: routine.mode)
            } else {
                routine.proc(id, routine.clientData)
            }
        }
    }

    /// Waits until every sound played so far has ended and its completions have been
    /// called (scheduled, for a routine on a run loop); false if that takes past `deadline`.
    package func waitUntilIdle(deadline: DispatchTime) -> Bool {
        plays.wait(timeout: deadline) == .success
    }

    // MARK: Completion routines

    /// Sets the routine called each time the sound ends, replacing an earlier one: on
    /// `runLoop` in `mode` when a run loop is given, else on the completion queue.
    package func addCompletion(
        _ id: SystemSoundID, runLoop: RunLoop?, mode: RunLoop.Mode, proc: AudioServicesSystemSoundCompletionProc,
        clientData: UnsafeMutableRawPointer?
    ) {
        let routine = CompletionRoutine(proc: proc, clientData: clientData, runLoop: runLoop, mode: mode)
        state.withLock { $0.routines[id] = routine }
    }

    /// Removes the sound's completion routine.
    package func removeCompletion(_ id: SystemSoundID) {
        state.withLock { $0.routines[id] = nil }
    }

    // MARK: Properties

    /// The properties System Sound Services has, with their defaults.
    package static let propertyDefaults: [AudioServicesPropertyID: UInt32] = [
        kAudioServicesPropertyIsUISound: 1,
        kAudioServicesPropertyCompletePlaybackIfAppDies: 0,
    ]

    /// The property's value for the sound (its default until set); nil for a property
    /// System Sound Services does not have.
    package func property(_ property: AudioServicesPropertyID, of id: SystemSoundID) -> UInt32? {
        guard let initial = Self.propertyDefaults[property] else { return nil }
        return state.withLock { $0.properties[id]?[property] } ?? initial
    }

    /// Sets the property for the sound; false for a property System Sound Services does not have.
    package func setProperty(_ property: AudioServicesPropertyID, of id: SystemSoundID, to value: UInt32) -> Bool {
        guard Self.propertyDefaults[property] != nil else { return false }
        state.withLock { $0.properties[id, default: [:]][property] = value }
        return true
    }
}
