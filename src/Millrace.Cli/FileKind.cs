using System.Runtime.InteropServices;

namespace Millrace.Cli;

/// <summary>
/// What kind of file system entry a path is, as far as the tool must know to never clobber or drain a special file.
/// .NET's file APIs do not say: on Linux <see cref="FileSystemInfo.Attributes"/> is <see cref="FileAttributes.Normal"/>
/// for a regular file, a device, a pipe and a socket alike, and <see cref="FileSystemInfo.UnixFileMode"/> holds the
/// permission bits only. The type is asked of the .NET runtime's own native shim (<c>libSystem.Native</c>, which every
/// .NET runtime on Linux and macOS ships and NativeAOT links in), whose <c>FileStatus</c> layout .NET defines the same on
/// every architecture and C library, rather than of libc's <c>stat</c>, whose symbol is missing before glibc 2.33 and
/// whose structure is laid out differently on each architecture. On Windows a path names a file or a folder, and
/// devices are not reached by file names the tool would write.
/// </summary>
internal static partial class FileKind
{
    // The shim's FileStatus: Flags (int32), Mode (int32, st_mode's bits as the platform's), then fields this does not read.
    private const int ModeOffset = 4;
    private const int StatusSize = 256;
    private const int TypeMask = 0xF000;
    private const int Regular = 0x8000;

    /// <summary>Whether a path that exists is a regular file: not a device, pipe or socket (a link is followed).</summary>
    /// <param name="path">The path.</param>
    /// <returns><see langword="false"/> for a special file; <see langword="true"/> for a regular file, and for a path that cannot be examined (the open that follows reports it).</returns>
    public static bool IsRegularFile(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            return !Directory.Exists(path);
        }

        Span<byte> status = stackalloc byte[StatusSize];
        return Stat(path, ref MemoryMarshal.GetReference(status)) != 0
            || (BitConverter.ToInt32(status[ModeOffset..]) & TypeMask) == Regular;
    }

    [LibraryImport("libSystem.Native", EntryPoint = "SystemNative_Stat", StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Stat(string path, ref byte status);
}
