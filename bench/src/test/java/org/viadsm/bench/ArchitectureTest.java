package org.viadsm.bench;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layers of the modules, checked on their main classes (this module sees every other one): via-engine,
 * consistency, dsm, then examples and bench. Maven keeps a lower module from using a higher one; these rules add
 * what Maven cannot see.
 */
class ArchitectureTest
{
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses()
    {
        classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.viadsm");
    }

    @Test
    void consistencyShouldNotKnowTheNic()
    {
        // The protocol is free of I/O: it reaches the network through its port, which dsm implements over VIA.
        noClasses().that().resideInAPackage("org.viadsm.consistency..")
            .should().dependOnClassesThat().resideInAPackage("org.viadsm.via..")
            .check(classes);
    }

    @Test
    void onlyTheEngineShouldUseItsInternals()
    {
        // Users of the NIC go through org.viadsm.via (Nic, Vi, descriptors, memory); the engine is the providers'.
        noClasses().that().resideOutsideOfPackage("org.viadsm.via..")
            .should().dependOnClassesThat().resideInAPackage("org.viadsm.via.engine..")
            .check(classes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"org.viadsm.via", "org.viadsm.consistency", "org.viadsm.dsm", "org.viadsm.examples",
        "org.viadsm.bench"})
    void packagesOfAModuleShouldFormNoCycle(final String module)
    {
        slices().assignedFrom(packagesOf(module)).should().beFreeOfCycles().check(classes);
    }

    /** Each package of the module a slice of its own; classes of other modules in none. */
    private static SliceAssignment packagesOf(final String module)
    {
        return new SliceAssignment()
        {
            @Override
            public SliceIdentifier getIdentifierOf(final JavaClass javaClass)
            {
                final String name = javaClass.getPackageName();
                return name.equals(module) || name.startsWith(module + ".") ?
                    SliceIdentifier.of(name) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription()
            {
                return "the packages of " + module;
            }
        };
    }
}
