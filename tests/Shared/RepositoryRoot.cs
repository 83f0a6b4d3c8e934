namespace Millrace.Testing;

/// <summary>The repository's folder, for tests that read what it holds beside the code (READMEs, docs, samples).</summary>
internal static class RepositoryRoot
{
    /// <summary>Gets the folder that holds <c>Millrace.slnx</c>, found by walking up from the test's output.</summary>
    public static string Path { get; } = Find();

    private static string Find()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(directory.FullName, "Millrace.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new DirectoryNotFoundException("The repository root (Millrace.slnx) was not found above the test's output.");
    }
}
