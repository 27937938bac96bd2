from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('builder', '0002_simulations'),
    ]

    operations = [
        migrations.AddField(
            model_name='simulationrun',
            name='chunk_size',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
