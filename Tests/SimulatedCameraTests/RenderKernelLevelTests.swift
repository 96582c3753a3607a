import CAffinity
import CRenderKernels
import Foundation
import Testing

@testable import SimulatedCamera

@Suite("Render kernel builds")
struct RenderKernelLevelTests {
    /// The build the bench reports is the one the CPU's flags allow (the loader's rule):
    /// AVX-512 F/BW/CD/DQ/VL → x86-64-v4, else AVX2 with FMA and BMI2 → x86-64-v3.
    @Test func levelMatchesTheCPU() throws {
        let level = String(cString: oc_render_kernel_level())
        #if arch(x86_64) && os(Linux)
            let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            let flagsLine = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") } ?? ""
            let flags = Set(flagsLine.split(separator: " ").map(String.init))
            let v4 = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"].allSatisfy(flags.contains)
            let v3 = ["avx2", "fma", "bmi2", "f16c", "movbe"].allSatisfy(flags.contains)
            #expect(level == (v4 && v3 ? "x86-64-v4" : v3 ? "x86-64-v3" : "x86-64"))
        #else
            #expect(["arm64", "baseline"].contains(level))
        #endif
    }
}

@Suite("Render gang size")
struct RenderGangSizeTests {
    /// `taskset -c 0` (or `bench --cores 1`) means one render thread: the gang follows the
    /// affinity mask, which Foundation's processor count ignores. Run in a child process,
    /// since pinning is for the whole process.
    @Test func gangFollowsTheAffinityMask() async {
        await #expect(processExitsWith: .success) {
            guard oc_pin_process_to_first_cores(1) == 1 else { exit(2) }
            exit(RenderWorkers.usableCores() == 1 && RenderWorkers.defaultParts() == 1 ? 0 : 1)
        }
        #expect(RenderWorkers.usableCores() >= 1)
    }
}
