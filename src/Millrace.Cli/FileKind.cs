using System.Runtime.InteropServices;

namespace Millrace.Cli;

/// <summary>What kind of file system entry a path is, as far as the tool must know to never clobber or drain a special file.</summary>
internal static partial class FileKind
{
    /// <summary>Whether a path that exists is a regular file: not a device, pipe or socket (a link is followed).</summary>
    public static bool IsRegularFile(string path)
    {
        if (!OperatingSystem.IsLinux())
        {
            return true;
        }

        // struct stat's st_mode: at byte 24 on x86-64, 16 on arm64 (glibc and musl alike).
        var modeOffset = RuntimeInformation.ProcessArchitecture switch
        {
            Architecture.X64 => 24,
            Architecture.Arm64 => 16,
            _ => -1,
        };
        if (modeOffset < 0)
        {
            return true;
        }

        var status = new byte[256];
        if (Stat(path, status) != 0)
        {
            return true;
        }

        const uint TypeMask = 0xF000, Regular = 0x8000;
        return (BitConverter.ToUInt32(status, modeOffset) & TypeMask) == Regular;
    }

    [LibraryImport("libc", EntryPoint = "stat", StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Stat(string path, [Out] byte[] status);
}
