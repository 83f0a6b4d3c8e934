namespace Millrace.Testing;

/// <summary>
/// Files from elsewhere (game files, other projects' test suites) in <c>../shared/data/</c> beside the repository, read in
/// place and never copied into it. CI always has them: there (<c>MILLRACE_SHARED_DATA=required</c>, set by <c>.ci/run</c>) a
/// missing folder fails its tests; in a clone without it they are skipped with a message naming the folder.
/// </summary>
internal static class SharedData
{
    /// <summary>Gets the folder's full path, found by walking up from the test's output to the repository's parent.</summary>
    public static string Folder(string name)
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            var candidate = Path.Combine(directory.FullName, "shared", "data", name);
            if (Directory.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new DirectoryNotFoundException($"../shared/data/{name} is missing: CI has it; a clone without it skips these tests.");
    }

    /// <summary>Gets whether the folder is there, or must be (in CI, where its absence fails the test instead).</summary>
    public static bool Available(string name)
    {
        try
        {
            Folder(name);
            return true;
        }
        catch (DirectoryNotFoundException)
        {
            return Environment.GetEnvironmentVariable("MILLRACE_SHARED_DATA") == "required";
        }
    }
}

/// <summary>A fact over files of <c>../shared/data/</c>: skipped, with the folder named, where the folder is missing outside CI.</summary>
[AttributeUsage(AttributeTargets.Method)]
internal sealed class SharedDataFactAttribute : FactAttribute
{
    public SharedDataFactAttribute(string folder)
    {
        if (!SharedData.Available(folder))
        {
            Skip = $"../shared/data/{folder} is not beside this clone (CI has it).";
        }
    }
}

/// <summary>A theory over files of <c>../shared/data/</c>, skipped as <see cref="SharedDataFactAttribute"/> is.</summary>
[AttributeUsage(AttributeTargets.Method)]
internal sealed class SharedDataTheoryAttribute : TheoryAttribute
{
    public SharedDataTheoryAttribute(string folder)
    {
        if (!SharedData.Available(folder))
        {
            Skip = $"../shared/data/{folder} is not beside this clone (CI has it).";
        }
    }
}
