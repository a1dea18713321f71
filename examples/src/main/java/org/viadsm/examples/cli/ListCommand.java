package org.viadsm.examples.cli;

import java.util.concurrent.Callable;

import org.viadsm.examples.catalog.AppCatalog;
import org.viadsm.examples.runtime.CFormat;
import picocli.CommandLine.Command;

/**
 * {@code viadsm list}: the applications, one line each, with their default inputs.
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the applications and their defaults.")
final class ListCommand implements Callable<Integer>
{
    @Override
    public Integer call()
    {
        for (final AppCatalog.Entry entry : AppCatalog.all())
        {
            System.out.println(CFormat.format("%-15s %-58s %s", entry.name(), entry.summary(), entry.defaultArgs()));
        }
        return 0;
    }
}
