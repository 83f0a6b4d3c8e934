namespace Millrace.Cluster;

/// <summary>The <see cref="Error.Code"/> values Millrace.Cluster reports.</summary>
public static class ClusterErrorCodes
{
    /// <summary>
    /// An item's handler failed after its retries with an exception that carries no <see cref="Error"/> of its own; the
    /// message names the exception's type. (A <see cref="MillraceException"/>'s own error is recorded instead, with its code.)
    /// </summary>
    public const string ItemFailed = "cluster.item_failed";

    /// <summary>An item's handler returned a result longer than <see cref="Jobs.ClusterJobConstants.MaxResultLength"/>.</summary>
    public const string ResultTooLong = "cluster.result_too_long";
}
