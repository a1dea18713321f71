package org.viadsm.examples.cli;

import java.util.concurrent.Callable;

import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.CFormat;
import picocli.CommandLine.Command;

/**
 * {@code viadsm list}: the applications, one line each, with the arguments of their SPLASH-2 default inputs.
 */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = {"Lists the applications, the arguments of their SPLASH-2 default inputs, and what each does.",
        "'viadsm run APP' with no arguments of the application's own runs the C program's defaults instead " +
            "('viadsm run APP --app-help' shows them)."})
final class ListCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        for (final AppCatalog.Entry entry : AppCatalog.all())
        {
            System.out.println(CFormat.format("%-15s %-22s %s", entry.name(), entry.defaultArgs(), entry.summary()));
        }
        return 0;
    }
}
